/*
 * The back office's clock, shared by the read models, the PDFs and the web page. The comment history shows US Eastern date and time (001 §3 remark entries `us_date`,
 * `us_time`). They are computed from the event's time, never the clock, with the IANA zone so
 * daylight saving is right. Built from `formatToParts`, because newer ICU versions put a narrow
 * no-break space before "AM": the strings must not change with the Node version.
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

export interface EasternDateTime {
  /** MM/DD/YYYY, e.g. "03/14/2025". */
  readonly date: string;
  /** hh:mm:ss AM/PM, e.g. "04:26:53 AM". */
  readonly time: string;
  /** "EST" or "EDT", for a reader in another zone. */
  readonly zone: string;
}

export const usEastern = (iso: string): EasternDateTime => {
  const parts = Object.fromEntries(EASTERN.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  const part = (type: string) => parts[type] ?? "";
  return {
    date: `${part("month")}/${part("day")}/${part("year")}`,
    time: `${part("hour")}:${part("minute")}:${part("second")} ${part("dayPeriod").toUpperCase()}`,
    zone: part("timeZoneName"),
  };
};

/**
 * An instant as the pages show it: US Eastern wall time, "MM/DD/YYYY hh:mm:ss AM EST". The spec
 * labels download times "EST" (001 §9) whatever the season, so the label is fixed while the clock
 * follows New York's daylight saving, as the comment history's us_date/us_time do. The order page
 * (staff) and the public download page (travellers) show the same words.
 */
export const easternTime = (iso: string): string => {
  if (Number.isNaN(new Date(iso).getTime())) return iso;
  const { date, time } = usEastern(iso);
  return `${date} ${time} EST`;
};
