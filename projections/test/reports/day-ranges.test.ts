import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { addDays, EMPTY, monthOf, splitRange, type Interval } from "../../src/reports/day-ranges.ts";

/*
 * A report range is read as whole months plus the loose days at its ends; every day of the range
 * must be counted exactly once, and no day outside it.
 */

const within = ([from, to]: Interval, value: string) =>
  (from === "-infinity" || (from !== "infinity" && from <= value)) && (to === "infinity" || (to !== "-infinity" && value <= to));

const FIRST = "2023-11-01";
const dayArb = fc.nat(800).map((n) => addDays(FIRST, n));

describe("splitting a report range (ADMIN-4, ADMIN-5)", () => {
  it("counts every day of the range exactly once, and nothing outside it", () => {
    fc.assert(
      fc.property(fc.option(dayArb, { nil: null }), fc.option(dayArb, { nil: null }), (from, to) => {
        fc.pre(from === null || to === null || from <= to);
        const parts = splitRange(from, to);
        for (let n = -40; n <= 840; n++) {
          const day = addDays(FIRST, n);
          const inRange = (from === null || day >= from) && (to === null || day <= to);
          const times = [within(parts.months, monthOf(day)), within(parts.head, day), within(parts.tail, day)].filter(Boolean).length;
          expect(times).toBe(inRange ? 1 : 0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("reads whole months from the month totals and only the loose days from the day totals", () => {
    expect(splitRange("2025-01-15", "2025-04-10")).toEqual({
      months: ["2025-02-01", "2025-03-01"],
      head: ["2025-01-15", "2025-01-31"],
      tail: ["2025-04-01", "2025-04-10"],
    });
    expect(splitRange("2025-02-01", "2025-02-28")).toEqual({ months: ["2025-02-01", "2025-02-01"], head: EMPTY, tail: EMPTY });
    expect(splitRange("2025-02-03", "2025-03-05")).toEqual({ months: EMPTY, head: ["2025-02-03", "2025-03-05"], tail: EMPTY });
    expect(splitRange(null, null)).toEqual({ months: ["-infinity", "infinity"], head: EMPTY, tail: EMPTY });
    expect(splitRange(null, "2024-02-29")).toEqual({ months: ["-infinity", "2024-02-01"], head: EMPTY, tail: EMPTY });
    expect(splitRange("2024-12-31", null)).toEqual({ months: ["2025-01-01", "infinity"], head: ["2024-12-31", "2024-12-31"], tail: EMPTY });
  });
});
