import { isDay } from "./form-rules.ts";

/*
 * The reports' URL state (ADMIN-4, ADMIN-5): the date range asked of the server and the search
 * text filtering its rows in the browser. Anything in the URL that is not a day or a string is
 * dropped rather than sent.
 */

export interface ReportSearch {
  readonly fromDate?: string;
  readonly toDate?: string;
  readonly search?: string;
}

export const validateReportSearch = (input: Record<string, unknown>): ReportSearch => {
  const pickDay = (value: unknown) => (typeof value === "string" && isDay(value) ? value : undefined);
  const fromDate = pickDay(input.fromDate);
  const toDate = pickDay(input.toDate);
  const search = typeof input.search === "string" && input.search.trim().length > 0 ? input.search : undefined;
  return {
    ...(fromDate ? { fromDate } : {}),
    ...(toDate ? { toDate } : {}),
    ...(search ? { search } : {}),
  };
};

/** 001 §5: case-insensitive substring; an empty search keeps every row. */
export const filterRows = <R>(rows: readonly R[], search: string | undefined, textOf: (row: R) => string): readonly R[] => {
  const needle = search?.trim().toLowerCase();
  if (!needle) return rows;
  return rows.filter((row) => textOf(row).toLowerCase().includes(needle));
};
