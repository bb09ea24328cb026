import * as Result from "effect/Result";
import * as Schema from "effect/Schema";
import * as SchemaIssue from "effect/SchemaIssue";
import { describe, expect, it } from "vitest";
import { isEmailAddress, MAX_EMAIL_LENGTH } from "../src/index.ts";
import { AddTeamMemberRequest, LoginRequest, ResendMailRequest } from "../src/requests/index.ts";

/*
 * The one e-mail rule (issue 25): what the forms, the request schemas, intake, the deciders and
 * the mail adapters accept is exactly what a mail can be addressed to, and no input, however long
 * or hostile, takes it more than a moment.
 */

const ACCEPTED = [
  "ada@example.com",
  "Juan.DelaCruz@Example.COM",
  "juan+visa@mail.example.ph",
  "o'brien@example.ie",
  "first_last-99@sub-domain.example.co.uk",
  "x@a.io",
  "a!#$%&*/=?^`{|}~b@example.com",
  "ada@xn--80ak6aa92e.com",
  `${"l".repeat(64)}@example.com`,
  `a@${"d".repeat(63)}.com`,
  `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`,
];

const REFUSED = [
  // Would name two recipients, or a recipient and a stray, at a provider or in a mail header.
  "a,c@d.co",
  "a@b.co,",
  "a@b.co;c@d.co",
  "a@b.co c@d.co",
  "Ada <ada@example.com>",
  "<ada@example.com>",
  '"ada"@example.com',
  '"a b"@example.com',
  "a:b@example.com",
  "a(b)@example.com",
  "a[b]@example.com",
  "a\\b@example.com",
  // Shape.
  "",
  "plainaddress",
  "@example.com",
  "ada@",
  "ada@example",
  "ada@@example.com",
  "a@b@example.com",
  "a@" + ".".repeat(10) + "@",
  ".ada@example.com",
  "ada.@example.com",
  "a..da@example.com",
  "ada@.example.com",
  "ada@example.com.",
  "ada@example..com",
  "ada@-example.com",
  "ada@example-.com",
  "ada@exa_mple.com",
  "ada@127.0.0.1",
  "ada@[127.0.0.1]",
  // Blanks and control characters anywhere, Unicode (SES wants Punycode and ASCII local parts).
  " ada@example.com",
  "ada@example.com ",
  "ad a@example.com",
  "ada@exa mple.com",
  "ad\ta@example.com",
  "ada@example.com\n",
  "ad\u0000a@example.com",
  "ad\u007fa@example.com",
  "ad\u00a0a@example.com",
  "josé@example.com",
  "ada@exämple.com",
  // Lengths: 64 for the local part, 63 a label, 254 in all.
  `${"l".repeat(65)}@example.com`,
  `a@${"d".repeat(64)}.com`,
  `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(58)}.com`,
];

describe("issue 25: one e-mail address rule", () => {
  it.each(ACCEPTED)("accepts %j", (address) => {
    expect(address.length).toBeLessThanOrEqual(MAX_EMAIL_LENGTH);
    expect(isEmailAddress(address)).toBe(true);
  });

  it.each(REFUSED)("refuses %j", (address) => {
    expect(isEmailAddress(address)).toBe(false);
  });

  it("counts the length on the whole address: 254 is the most", () => {
    const longest = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(57)}.com`;
    expect(longest.length).toBe(254);
    expect(isEmailAddress(longest)).toBe(true);
  });

  it("gives the request schemas' verdict with their own messages: sign-in, Manage Team, Resend Mail", () => {
    const formatter = SchemaIssue.makeFormatterStandardSchemaV1();
    /** The refusal's messages, as the API's 400 lists them, or undefined when the request is accepted. */
    const refusal = (schema: Schema.Codec<unknown, unknown>, input: unknown): string[] | undefined => {
      const decoded = Schema.decodeUnknownResult(schema)(input, { errors: "all", onExcessProperty: "error" });
      return Result.isFailure(decoded) ? formatter(decoded.failure.issue).issues.map((issue) => issue.message) : undefined;
    };
    expect(refusal(LoginRequest, { email: " ada@example.com ", password: "x" })).toBeUndefined();
    expect(refusal(LoginRequest, { email: "a,c@d.co", password: "x" })).toEqual(["Invalid email address"]);
    expect(refusal(AddTeamMemberRequest, { name: "Ada", email: "a@b.co,", password: "secret1", type: "Team" })).toEqual(["Please enter a valid email."]);
    expect(refusal(ResendMailRequest, { orderId: "100001", email: "a,c@d.co" })).toEqual(["Please enter a valid email."]);
    expect(refusal(ResendMailRequest, { orderId: "100001", email: "ada@example.com" })).toBeUndefined();
  });

  it("answers hostile input of any length at once: 160,000 dots between two '@' (the sign-in that held the process 11 s)", () => {
    const inputs = [
      "a@" + ".".repeat(160_000) + "@",
      "a@" + ".".repeat(2_000_000) + "@",
      "a@a.".repeat(500_000),
      "a".repeat(2_000_000) + "@",
      " ".repeat(2_000_000),
      "1".repeat(2_000_000),
    ];
    for (const input of inputs) {
      const started = performance.now();
      const direct = isEmailAddress(input);
      const decoded = Schema.decodeUnknownResult(LoginRequest)({ email: input, password: "x" }, { errors: "all" });
      const elapsed = performance.now() - started;
      expect(direct).toBe(false);
      expect(Result.isFailure(decoded)).toBe(true);
      // Linear: a few milliseconds for 2 MB; the quadratic pattern took seconds at 80 kB.
      expect(elapsed, `${input.slice(0, 12)}… (${input.length} characters)`).toBeLessThan(100);
    }
  });
});
