import { ORDER_STATUS_LABELS } from "@etd/events";
import type { QueueKey } from "./queue-folders.ts";

/*
 * How the lists show values (000 §9, QUEUE-6). Decisions where the spec is silent:
 * - Times are shown in UTC, like the processing date the spec pins to UTC, so every member of
 *   staff sees the same value whatever their browser's zone; the raw ISO value is in the row too.
 * - "hh:mm:ss" is read as a 24-hour clock: a 12-hour clock without AM/PM would be ambiguous.
 * - Dates the customer typed (arrival, departure) are reformatted when they are YYYY-MM-DD and
 *   shown as typed otherwise.
 */

/** The labels staff read: the catalogue's, one map for every screen and message. */
export const STATUS_LABELS = ORDER_STATUS_LABELS;

export type DateStyle = "DD/MM/YYYY" | "MM-DD-YYYY" | "DD-MM-YYYY";

/** The date style of a list's dates: MM-DD-YYYY on Priority, DD/MM/YYYY elsewhere (QUEUE-6). */
export const listDateStyle = (key: QueueKey): DateStyle => (key === "priorityOrder" ? "MM-DD-YYYY" : "DD/MM/YYYY");

/** The refund list shows its Refund Date as DD-MM-YYYY (QUEUE-6). */
export const refundDateStyle = (key: QueueKey): DateStyle => (key === "refundOrder" ? "DD-MM-YYYY" : listDateStyle(key));

const DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** A YYYY-MM-DD day in a list's style; anything else unchanged, nothing as null. */
export const formatDay = (day: string | null, style: DateStyle): string | null => {
  if (day === null) return null;
  const parts = DAY.exec(day);
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

/** An instant as "<day in style> HH:mm:ss", in UTC. */
export const formatDateTime = (iso: string, style: DateStyle): string => {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const utc = at.toISOString();
  return `${formatDay(utc.slice(0, 10), style) ?? ""} ${utc.slice(11, 19)}`;
};

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

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

/**
 * The telephone number with its country code, as the list shows it and the chat link needs it
 * (QUEUE-13): "+63 9171234567". A number already written with a "+" is kept as it is.
 */
export const internationalPhone = (number: string | null, countryCode: string | null): string | null => {
  if (number === null || number === "") return null;
  const code = countryCode?.replace(/[^0-9]/g, "") ?? "";
  if (number.startsWith("+") || code === "") return number;
  return `+${code} ${number}`;
};
