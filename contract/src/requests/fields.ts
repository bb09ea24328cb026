import * as Schema from "effect/Schema";
import type { OrderId } from "@etd/events";
import { isEmailAddress } from "../rules.ts";

/*
 * Request fields with the specifications' own messages. A missing key and an empty value get the
 * same "required" message, because the existing client sends either.
 */

/**
 * A required text field; `required` is the spec's message for a missing or blank value. Every
 * check runs (requests decode with `errors: "all"`), whatever the length: each is one linear pass.
 */
export const requiredText = (required: string, maxLength = 500) =>
  Schema.String.check(
    Schema.makeFilter((s: string) => s.trim().length > 0 || required),
    // PostgreSQL's text and jsonb cannot hold U+0000: refused here, it would otherwise fail as a 500.
    Schema.makeFilter((s: string) => !s.includes("\u0000") || "Must not contain the NUL character."),
    Schema.isMaxLength(maxLength, { message: `Must be at most ${maxLength} characters.` }),
  ).pipe(Schema.annotateKey({ messageMissingKey: required }));

/** A required e-mail address: the one rule (isEmailAddress, which checks the length first) on the trimmed value. */
export const requiredEmail = (required: string, invalid: string) =>
  Schema.String.check(
    Schema.makeFilter((s: string) => s.trim().length > 0 || required),
    Schema.makeFilter((s: string) => s.trim().length === 0 || isEmailAddress(s.trim()) || invalid),
  ).pipe(Schema.annotateKey({ messageMissingKey: required }));

/** Order ids arrive as numbers or strings from the existing client; both become the digit string. */
export const orderIdField = (required = "Please enter your order id.") =>
  Schema.Union([Schema.String, Schema.Int])
    .check(
      Schema.makeFilter((v: string | number) => String(v).trim().length > 0 || required),
      Schema.makeFilter(
        (v: string | number) => String(v).trim().length === 0 || /^\d{6,20}$/.test(String(v).trim()) || "Order Id must be at least 6 characters.",
      ),
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

/** CROSS-4: the mail adapter staff choose, in any case; AWS when absent. */
export const MailProviderField = Schema.optionalKey(
  Schema.String.check(Schema.makeFilter((s: string) => /^(aws|sendgrid)$/i.test(s.trim()) || MAIL_PROVIDER_MESSAGE)),
);

/** CROSS-4: AWS unless the client names Sendgrid. */
export const providerOf = (value: string | undefined): "AWS" | "Sendgrid" => (value?.trim().toLowerCase() === "sendgrid" ? "Sendgrid" : "AWS");

/**
 * The order's version the page showed (`version` of the order details answer), sent with a
 * decisive action: when the order has moved on since, the action is refused and changes nothing.
 * Optional: a client that does not send it (the spec's own) acts on the order as it is.
 */
export const expectedVersionField = Schema.optionalKey(
  Schema.Union([Schema.Int, Schema.String]).check(
    Schema.makeFilter((v: number | string) => /^\d{1,15}$/.test(String(v).trim()) || "The order version must be a whole number."),
  ),
);

/** Only after `expectedVersionField` has checked the digits. */
export const toVersion = (value: number | string | undefined): bigint | undefined => (value === undefined ? undefined : BigInt(String(value).trim()));
