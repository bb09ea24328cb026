/*
 * The reports keep their totals per day and per month. A range of days is read as the whole
 * months inside it (one row per month and key) plus the loose days at either end (at most two
 * partial months), so a year's report sums a few thousand rows, not a few hundred thousand.
 *
 * Days and months are `YYYY-MM-DD` strings (a month by its first day); "-infinity" and
 * "infinity" are PostgreSQL's own date bounds, and an empty interval is written [infinity,
 * -infinity], which no date falls in.
 */

export type Interval = readonly [from: string, to: string];

export interface RangeParts {
  /** Whole months, by their first days, both included. */
  readonly months: Interval;
  /** The loose days before the first whole month, both included. */
  readonly head: Interval;
  /** The loose days after the last whole month, both included. */
  readonly tail: Interval;
}

export const EMPTY: Interval = ["infinity", "-infinity"];

const DAY_MS = 86_400_000;

export const monthOf = (day: string): string => `${day.slice(0, 7)}-01`;

export const addDays = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);

const addMonths = (month: string, months: number): string => {
  const date = new Date(`${month}T00:00:00.000Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
};

const rank = (bound: string): number => (bound === "-infinity" ? -1 : bound === "infinity" ? 1 : 0);

/** a ≤ b, for days and the two infinities. */
const notAfter = (a: string, b: string): boolean => (rank(a) !== rank(b) ? rank(a) < rank(b) : rank(a) !== 0 || a <= b);

/** Splits [from, to] (null: open on that side) into whole months and the loose days around them. */
export const splitRange = (from: string | null, to: string | null): RangeParts => {
  const firstMonth = from === null ? "-infinity" : from === monthOf(from) ? from : addMonths(monthOf(from), 1);
  const lastMonth = to === null ? "infinity" : addDays(to, 1) === addMonths(monthOf(to), 1) ? monthOf(to) : addMonths(monthOf(to), -1);
  if (!notAfter(firstMonth, lastMonth)) {
    // No whole month inside: both ends are given and at most two partial months apart.
    return { months: EMPTY, head: [from!, to!], tail: EMPTY };
  }
  return {
    months: [firstMonth, lastMonth],
    head: from !== null && from !== firstMonth ? [from, addDays(firstMonth, -1)] : EMPTY,
    tail: to !== null && lastMonth !== monthOf(to) ? [addMonths(lastMonth, 1), to] : EMPTY,
  };
};

/** The six parameters of a split range, in the order `grainFilter` numbers them. */
export const rangeParameters = (parts: RangeParts): string[] => [...parts.months, ...parts.head, ...parts.tail];

/**
 * The rows of a day/month totals table that make up a split range: `grain` 'm' rows for the
 * whole months, 'd' rows for the loose days. Each disjunct is a range on the primary key.
 */
export const grainFilter = (alias: string, first: number): string => {
  const p = (i: number) => `$${first + i}::date`;
  return `((${alias}.grain = 'm' and ${alias}.period between ${p(0)} and ${p(1)})
        or (${alias}.grain = 'd' and ${alias}.period between ${p(2)} and ${p(3)})
        or (${alias}.grain = 'd' and ${alias}.period between ${p(4)} and ${p(5)}))`;
};
