import { Schema } from "effect";
import type { IsoDate, OrderId } from "@etd/events";

/*
 * Request fields with the specifications' own messages. A missing key and an empty value get the
 * same "required" message, because the existing client sends either.
 */

const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

/** A required text field; `required` is the spec's message for a missing or blank value. */
export const requiredText = (required: string, maxLength = 500) =>
  Schema.String.check(
    Schema.makeFilter((s: string) => s.trim().length > 0 || required),
    // PostgreSQL's text and jsonb cannot hold U+0000: refused here, it would otherwise fail as a 500.
    Schema.makeFilter((s: string) => !s.includes("\u0000") || "Must not contain the NUL character."),
    Schema.isMaxLength(maxLength, { message: `Must be at most ${maxLength} characters.` }),
  ).pipe(Schema.annotateKey({ messageMissingKey: required }));

export const requiredEmail = (required: string, invalid: string) =>
  Schema.String.check(
    Schema.makeFilter((s: string) => s.trim().length > 0 || required),
    Schema.makeFilter((s: string) => s.trim().length === 0 || (EMAIL.test(s.trim()) && s.length <= 254) || invalid),
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

/** 000 §7 sends one id or a list (bulk actions); both are accepted, at most 500 at once (the largest page). */
export const orderIdList = Schema.Union([
  orderIdField("Please select at least one order."),
  Schema.Array(orderIdField("Please select at least one order.")).check(
    Schema.isMinLength(1, { message: "Please select at least one order." }),
    Schema.isMaxLength(500, { message: "At most 500 orders can be changed at once." }),
  ),
]).pipe(Schema.annotateKey({ messageMissingKey: "Please select at least one order." }));

export const toOrderIds = (value: string | number | readonly (string | number)[]): OrderId[] => [
  ...new Set((Array.isArray(value) ? value : [value]).map(toOrderId)),
];

/** The remark form's flags: 'Y' when ticked (000 §3), also accepted as booleans and 'N'/empty. */
export const flag = Schema.optionalKey(Schema.Union([Schema.Boolean, Schema.Literals(["Y", "N", "y", "n", ""])]));
export const isTicked = (value: boolean | string | undefined): boolean => value === true || value === "Y" || value === "y";

/** Today's date in UTC, as deciders take it. */
export const utcDay = (now: Date): IsoDate => now.toISOString().slice(0, 10) as IsoDate;
