import { describe, expect, it } from "vitest";
import { codeError, normalizeCode, normalizeRecoveryCode, recoveryCodeError } from "../src/lib/two-factor-codes.ts";

describe("the two-factor second step's rules (issue 16 part A, in the style of AUTH-2)", () => {
  it("asks for the authenticator's code first, then for six digits (spaces ignored)", () => {
    expect(codeError("")).toBe("Authentication code is required");
    expect(codeError("  ")).toBe("Authentication code is required");
    expect(codeError("12345")).toBe("Authentication code must be 6 digits");
    expect(codeError("1234567")).toBe("Authentication code must be 6 digits");
    expect(codeError("12a456")).toBe("Authentication code must be 6 digits");
    expect(codeError("123456")).toBeUndefined();
    expect(codeError("123 456")).toBeUndefined();
    expect(normalizeCode(" 123 456 ")).toBe("123456");
  });

  it("asks for a recovery code of ten letters and digits, typed with or without the hyphen, in any case", () => {
    expect(recoveryCodeError("")).toBe("Recovery code is required");
    expect(recoveryCodeError("abcde-fgh")).toBe("Invalid recovery code");
    expect(recoveryCodeError("abcde-fgh!j")).toBe("Invalid recovery code");
    expect(recoveryCodeError("abcde-fghij")).toBeUndefined();
    expect(recoveryCodeError("ABCDEFGHIJ")).toBeUndefined();
    expect(normalizeRecoveryCode(" ABCDE FGHIJ ")).toBe("abcde-fghij");
    expect(normalizeRecoveryCode("abcde-fghij")).toBe("abcde-fghij");
  });
});
