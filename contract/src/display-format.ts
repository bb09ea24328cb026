import { PROCESSING_MODE_LABELS } from "./vocabulary.ts";

/*
 * How the lists show values (000 §9, QUEUE-6): the queue lists' display values (queue-columns.ts)
 * and the Order Processed list's, whose table (web) and CSV export (API, issue 16 D) both format
 * with these. Times are shown in UTC, like the processing date the spec pins to UTC, so every
 * member of staff sees the same value whatever their browser's zone. A status's label is the
 * vocabulary's `statusLabel`, exported beside these.
 */

const MODE_LABELS: Readonly<Record<string, string>> = PROCESSING_MODE_LABELS;

/**
 * How a list shows its dates (QUEUE-6): DD/MM/YYYY, MM-DD-YYYY on Priority, DD-MM-YYYY for the
 * refund list's Refund Date. "hh:mm:ss" is read as a 24-hour clock: a 12-hour clock without AM/PM
 * would be ambiguous.
 */
export type DateStyle = "DD/MM/YYYY" | "MM-DD-YYYY" | "DD-MM-YYYY";

/** "2025-04-03" → "03/04/2025" (or the style's order); anything else unchanged, as the customer typed it. */
export const formatDay = (day: string, style: DateStyle = "DD/MM/YYYY"): string => {
  const parts = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!parts) return day;
  const [, year, month, date] = parts as unknown as [string, string, string, string];
  switch (style) {
    case "DD/MM/YYYY":
      return `${date}/${month}/${year}`;
    case "MM-DD-YYYY":
      return `${month}-${date}-${year}`;
    case "DD-MM-YYYY":
      return `${date}-${month}-${year}`;
  }
};

/** An ISO instant as "<day in style> HH:mm:ss" in UTC; anything that is not an instant unchanged. */
export const formatDateTime = (iso: string, style: DateStyle = "DD/MM/YYYY"): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const utc = at.toISOString();
  return `${formatDay(utc.slice(0, 10), style)} ${utc.slice(11, 19)}`;
};

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;

/** The name of a month, 1 to 12. */
export const monthName = (month: number): string => MONTH_NAMES[month - 1] ?? String(month);

/** "2025-04" → "April 2025". */
export const formatProcessMonth = (processMonth: string): string => {
  const [year, month] = processMonth.split("-");
  return `${monthName(Number(month))} ${year ?? ""}`;
};

/** First, middle and last name as one, as the Name column shows it. */
export const fullName = (first: string | null, middle: string | null, last: string | null): string =>
  [first, middle, last].filter((part): part is string => part !== null && part !== "").join(" ");

/** ORDER-4: the site's 'Regular Processing' reads as 'Standard Processing'; an unknown mode as it came. */
export const processingModeLabel = (mode: string): string => MODE_LABELS[mode] ?? mode;

const MINUTE = 60_000;

/**
 * A length of time as staff read it everywhere: the Due column, the why panel, the service-level
 * screen, the dashboard and the audit (issue 27). Whole minutes, rounded down; hours up to two
 * days, then days; a unit that is zero is left out: "45 min", "2 h", "2 h 10 min", "24 h",
 * "2 d 3 h", "3 d 1 h 5 min"; under a minute "less than 1 min". The sign is the caller's to say
 * ("overdue 35 min").
 */
export const durationText = (ms: number): string => {
  const minutes = Math.floor(Math.abs(ms) / MINUTE);
  if (minutes < 1) return "less than 1 min";
  const totalHours = Math.floor(minutes / 60);
  const [days, hours] = totalHours >= 48 ? [Math.floor(totalHours / 24), totalHours % 24] : [0, totalHours];
  const parts = [days > 0 ? `${days} d` : "", hours > 0 ? `${hours} h` : "", minutes % 60 > 0 ? `${minutes % 60} min` : ""];
  return parts.filter((part) => part !== "").join(" ");
};
