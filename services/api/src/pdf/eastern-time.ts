/*
 * The packs state times in US Eastern time (the back office's clock, 001 §3), with EST or EDT
 * named so a reader in another zone is not misled. Built from `formatToParts` so the text does not
 * change with the ICU version's spacing choices: the same history must give the same pack.
 */

const EASTERN = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/New_York",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hour12: true,
  timeZoneName: "short",
});

/** "03/14/2025 04:26:53 AM EDT"; an unreadable time is shown as it came. */
export const easternDateTime = (iso: string): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = Object.fromEntries(EASTERN.formatToParts(date).map((part) => [part.type, part.value]));
  const part = (type: string) => parts[type] ?? "";
  return `${part("month")}/${part("day")}/${part("year")} ${part("hour")}:${part("minute")}:${part("second")} ${part("dayPeriod").toUpperCase()} ${part("timeZoneName")}`;
};
