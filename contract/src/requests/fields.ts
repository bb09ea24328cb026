import * as Schema from "effect/Schema";
import type { OrderId } from "@etd/events";
import { EMAIL_ADDRESS_PATTERN, isEmailAddress } from "../rules.ts";
import { anyCase, blankOr, matches, maxCharacters, NOT_BLANK, padded, stringOrInteger } from "@etd/events/checks";

/*
 * Request fields with the specifications' own messages. A missing key and an empty value get the
 * same "required" message, because the existing client sends either.
 */

/**
 * A required text field; `required` is the spec's message for a missing or blank value. Blank
 * first, so a long blank value is still "required"; the length next, which ends the checks of a
 * value too long (maxCharacters), so the NUL scan never walks one.
 */
export const requiredText = (required: string, maxLength = 500) =>
  Schema.String.check(
    matches(NOT_BLANK, required),
    maxCharacters(maxLength, `Must be at most ${maxLength} characters.`),
    // PostgreSQL's text and jsonb cannot hold U+0000: refused here, it would otherwise fail as a 500.
    // (The document states it once for every string, as the endpoint layer checks it: openapi.ts.)
    Schema.makeFilter((s: string) => !s.includes("\u0000") || "Must not contain the NUL character."),
  ).pipe(Schema.annotateKey({ messageMissingKey: required }));

/**
 * A required e-mail address: the one rule (isEmailAddress, which checks the length first) on the
 * trimmed value. The document states its shape; its lengths (254 in all, 64 before the '@', 63 a
 * label) are beyond what one pattern of a padded value can state.
 */
export const requiredEmail = (required: string, invalid: string) =>
  Schema.String.check(
    matches(NOT_BLANK, required),
    Schema.makeFilter((s: string) => s.trim().length === 0 || isEmailAddress(s.trim()) || invalid, {
      toJsonSchema: () => ({ pattern: blankOr(EMAIL_ADDRESS_PATTERN).source }),
    }),
  ).pipe(Schema.annotateKey({ messageMissingKey: required }));

/** Order ids arrive as numbers or strings from the existing client; both become the digit string. */
export const orderIdField = (required = "Please enter your order id.") =>
  Schema.Union([Schema.String, Schema.Int])
    .check(
      stringOrInteger(NOT_BLANK, {}, required),
      // 6 to 20 digits: as a number, 100000 or more.
      stringOrInteger(blankOr("[0-9]{6,20}"), { minimum: 100_000 }, "Order Id must be at least 6 characters."),
    )
    .pipe(Schema.annotateKey({ messageMissingKey: required }));

/** Only after `orderIdField` has checked the digits. */
export const toOrderId = (value: string | number): OrderId => String(value).trim() as OrderId;

export const toOrderIds = (value: string | number | readonly (string | number)[]): OrderId[] => [
  ...new Set((Array.isArray(value) ? value : [value]).map(toOrderId)),
];

/** The remark form's flags: 'Y' when ticked (000 §3), also accepted as booleans and 'N'/empty. */
export const flag = Schema.optionalKey(Schema.Union([Schema.Boolean, Schema.Literals(["Y", "N", "y", "n", ""])]));
export const isTicked = (value: boolean | string | undefined): boolean => value === true || value === "Y" || value === "y";

export const MAIL_PROVIDER_MESSAGE = "Please choose AWS or Sendgrid as the mail provider.";

/** The providers' names in any case, as a pattern. */
export const MAIL_PROVIDERS = `(?:${anyCase("aws")}|${anyCase("sendgrid")})`;

/** CROSS-4: the mail adapter staff choose, in any case; AWS when absent. */
export const MailProviderField = Schema.optionalKey(Schema.String.check(matches(padded(MAIL_PROVIDERS), MAIL_PROVIDER_MESSAGE)));

/** CROSS-4: AWS unless the client names Sendgrid. */
export const providerOf = (value: string | undefined): "AWS" | "Sendgrid" => (value?.trim().toLowerCase() === "sendgrid" ? "Sendgrid" : "AWS");

/**
 * The order's version the page showed (`version` of the order details answer), sent with a
 * decisive action: when the order has moved on since, the action is refused and changes nothing.
 * Optional: a client that does not send it (the spec's own) acts on the order as it is.
 */
export const expectedVersionField = Schema.optionalKey(
  Schema.Union([Schema.Int, Schema.String]).check(
    stringOrInteger(padded("[0-9]{1,15}"), { minimum: 0, maximum: 999_999_999_999_999 }, "The order version must be a whole number."),
  ),
);

/** Only after `expectedVersionField` has checked the digits. */
export const toVersion = (value: number | string | undefined): bigint | undefined => (value === undefined ? undefined : BigInt(String(value).trim()));
