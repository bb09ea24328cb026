import { describe, expect, it } from "vitest";
import { emailError, passwordError, signInErrors } from "../src/features/auth/sign-in-rules.ts";

describe("the sign-in form's rules (AUTH-2)", () => {
  it("asks for the e-mail address first, then for a valid one", () => {
    expect(emailError("")).toBe("Email Address is required");
    expect(emailError("   ")).toBe("Email Address is required");
    expect(emailError("ada")).toBe("Invalid email address");
    expect(emailError("ada@example")).toBe("Invalid email address");
    expect(emailError("ada @example.com")).toBe("Invalid email address");
    // The server's one rule (issue 25): what a mail could not be addressed to.
    expect(emailError("a,c@d.co")).toBe("Invalid email address");
    expect(emailError("a@b.co,")).toBe("Invalid email address");
    expect(emailError("a@" + ".".repeat(160_000) + "@")).toBe("Invalid email address");
    expect(emailError("ada@example.com")).toBeUndefined();
    expect(emailError(" ada@example.com ")).toBeUndefined();
  });

  it("asks for a password, any password", () => {
    expect(passwordError("")).toBe("Password is required");
    expect(passwordError(" ")).toBeUndefined();
  });

  it("lists every field's error at once, and none for a valid form", () => {
    expect(signInErrors({ email: "", password: "" })).toEqual({ email: "Email Address is required", password: "Password is required" });
    expect(signInErrors({ email: "ada@example.com", password: "secret" })).toEqual({});
  });
});
