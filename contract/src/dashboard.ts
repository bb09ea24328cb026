import { durationText } from "./display-format.ts";
import type { QueueKey } from "./queues.ts";

/*
 * The day at a glance (issue 27): what the dashboard endpoint answers. Days and hours are UTC, as
 * the queues show dates (ADR 0036). An Admin or Manager gets the whole team; anyone else the same
 * shape about themselves only (their own orders, uploads and line), without the mail health.
 */

/** The backlog's ages, from payment: under 1 h, 1–4 h, 4–24 h, 24 h and over. */
export const BACKLOG_AGES = ["underHour", "oneToFourHours", "fourToDayHours", "overDay"] as const;
export type BacklogAge = (typeof BACKLOG_AGES)[number];

/** The backlog table's column headers, by age. */
export const BACKLOG_AGE_LABELS: { readonly [A in BacklogAge]: string } = {
  underHour: "Under 1 h",
  oneToFourHours: "1–4 h",
  fourToDayHours: "4–24 h",
  overDay: "Over 24 h",
};

/** The working folders whose orders are a backlog, in menu order. */
export const BACKLOG_FOLDERS = [
  "newOrder",
  "priorityOrder",
  "pendingOrder",
  "contactCustomerOrder",
  "customerCalledOrder",
  "awaitingOrder",
  "awaitingGovtOrder",
] as const satisfies readonly QueueKey[];
export type BacklogFolder = (typeof BACKLOG_FOLDERS)[number];

export type BacklogRow = { readonly folder: BacklogFolder } & { readonly [A in BacklogAge]: number };

/** Documents sent in one hour of today (UTC) and of the same hour a week ago. */
export interface SentHour {
  /** 0–23, UTC. */
  readonly hour: number;
  readonly today: number;
  readonly lastWeek: number;
}

/** One member's line. */
export interface MemberDay {
  readonly staffId: string;
  readonly name: string;
  /** Orders assigned to them and not finished (My Orders). */
  readonly open: number;
  /** Documents they uploaded today. */
  readonly processedToday: number;
  /** Median time from the order's latest assignment to the document, of today's uploads (ms); none without any. */
  readonly medianAssignedToDocumentMs: number | null;
  /** Of today's uploads, those made within the service level (the order's clock within its allowance then). */
  readonly withinLevel: number;
}

/** Mails in trouble among those asked for in the last 24 hours, with (up to 20 of) their orders. */
export interface MailTrouble {
  readonly count: number;
  readonly orderIds: readonly string[];
}

export interface MailHealth {
  readonly bounced: MailTrouble;
  readonly outcomeUnknown: MailTrouble;
  /** Asked for over an hour ago and never accepted by a provider (failed, waiting, or never tried). */
  readonly notSentAfterHour: MailTrouble;
}

export interface DashboardDay {
  /** The moment the figures are for (ISO 8601 UTC). */
  readonly asOf: string;
  /** "team": the whole team (Admin, Manager); "own": the caller's own figures only. */
  readonly scope: "team" | "own";
  readonly backlog: readonly BacklogRow[];
  /** Running clocks past their due time, and due in the coming hour. */
  readonly overdue: number;
  readonly dueWithinHour: number;
  /** 24 hours, 0 to 23. */
  readonly sentPerHour: readonly SentHour[];
  readonly members: readonly MemberDay[];
  /** The team's only. */
  readonly mail: MailHealth | null;
}

/** A share as the table shows it: "83%", or "–" with nothing to share. */
export const percentOf = (part: number, whole: number): string => (whole === 0 ? "–" : `${Math.round((part / whole) * 100)}%`);

/** The per-member table's columns, for the screen and the CSV export alike. */
export const MEMBER_DAY_COLUMNS: readonly { readonly header: string; readonly cell: (row: MemberDay) => string }[] = [
  { header: "Member", cell: (row) => row.name },
  { header: "Open", cell: (row) => String(row.open) },
  { header: "Processed today", cell: (row) => String(row.processedToday) },
  { header: "Median assignment to document", cell: (row) => (row.medianAssignedToDocumentMs === null ? "–" : durationText(row.medianAssignedToDocumentMs)) },
  { header: "Within service level", cell: (row) => percentOf(row.withinLevel, row.processedToday) },
];
