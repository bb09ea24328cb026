import type { Body, DateRangeRequest } from "@etd/contract/requests";

/** A report's range of UTC calendar days, YYYY-MM-DD, both ends included. */
export interface DayRange {
  readonly fromDate?: string | undefined;
  readonly toDate?: string | undefined;
}

/** The body both reports send: empty dates leave that end of the range open (001 §7). */
export const rangeBody = (range: DayRange) => ({ fromDate: range.fromDate ?? "", toDate: range.toDate ?? "" }) satisfies Body<typeof DateRangeRequest>;
