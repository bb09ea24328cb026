import * as Schema from "effect/Schema";

/** Text a person typed that must say something: not empty, no surrounding blanks. */
export const NonEmptyText = Schema.String.check(
  Schema.isNonEmpty({ message: "must not be empty" }),
  Schema.isTrimmed({ message: "must not start or end with spaces" }),
);

const ISO_DATE_TIME_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/**
 * An instant as `Date.prototype.toISOString()` writes it. Kept as a string, not a Date, so an
 * event's data is the same JSON in memory and in the store; UTC only, so strings sort by time.
 */
export const IsoDateTime = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      (ISO_DATE_TIME_UTC.test(s) && !Number.isNaN(Date.parse(s))) ||
      `expected an ISO 8601 UTC timestamp like "2025-03-14T09:26:53.589Z", got ${JSON.stringify(s)}`,
  ),
).pipe(Schema.brand("IsoDateTime"));
export type IsoDateTime = typeof IsoDateTime.Type;

/** A calendar day, `YYYY-MM-DD`, with no time zone: processing and refund dates are days. */
export const IsoDate = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      isCalendarDate(s) || `expected a calendar date like "2025-03-14", got ${JSON.stringify(s)}`,
  ),
).pipe(Schema.brand("IsoDate"));
export type IsoDate = typeof IsoDate.Type;

function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const date = new Date(`${s}T00:00:00Z`);
  // Date rolls 2025-02-30 over to March; a real day survives the round trip.
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === s;
}

/** Counts on the arrival form (baggage, family members). */
export const Count = Schema.Int.check(
  Schema.isGreaterThanOrEqualTo(0, { message: "must be a whole number of 0 or more" }),
);

/**
 * The shape every stored address has had: one '@' with something before it, no blanks, a dot
 * inside the domain. Looser than the rule new addresses pass (isEmailAddress, email-address.ts),
 * because events stored before that rule must keep decoding; a scan, not a pattern, so it is
 * linear in any input (the pattern `[^\s@]+\.[^\s@]+` backtracked quadratically).
 */
const hasStoredAddressShape = (s: string): boolean => {
  const at = s.indexOf("@");
  return at > 0 && s.indexOf("@", at + 1) === -1 && !/\s/.test(s) && s.slice(at + 2, -1).includes(".");
};

export const EmailAddress = Schema.String.check(
  Schema.makeFilter((s: string) => hasStoredAddressShape(s) || "must be an e-mail address"),
);
