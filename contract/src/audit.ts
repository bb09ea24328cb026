import type { AuditLine } from "./order-page.ts";
import type { QueueKey } from "./queues.ts";
import type { Role } from "./vocabulary.ts";

/*
 * The auditor's workspace (CARD-4, issue 14): what the audit endpoints answer. Every answer is
 * folded from the event log itself, never from a read model: the log is the audit trail.
 * Admin and Manager only ("audit.read").
 */

/** Who did it, as the event recorded them at the time. */
export interface AuditActor {
  readonly kind: "staff" | "system" | "customer";
  /** Staff only. */
  readonly id: string | null;
  /** "Maria Santos", "order-intake", "The traveller". */
  readonly name: string;
  readonly role: Role | null;
}

/** One event as an auditor reads it: who, role, when, from where, and what changed, in words. */
export interface AuditEvent {
  /** The stream it belongs to: the order's own, or one of its mails'. */
  readonly stream: string;
  /** 1, 2, 3… within its stream. */
  readonly streamPosition: number;
  /** The global log position, `"<tx>.<seq>"`. */
  readonly position: string;
  readonly eventId: string;
  readonly type: string;
  readonly occurredAt: string;
  readonly actor: AuditActor;
  /** The address a staff request came from; null for the system and for travellers (their address is personal data). */
  readonly requestIp: string | null;
  readonly correlationId: string;
  /** The sentence the order page's audit timeline shows ("status New → Pending"). */
  readonly summary: string;
  /** The order it concerns, for links; null for staff and gateway events. */
  readonly orderId: string | null;
  readonly data: unknown;
}

/** A remark as it stood at a moment. */
export interface AuditRemark {
  readonly at: string;
  readonly by: string;
  readonly remark: string;
  readonly flags: readonly string[];
}

/** The order as it stood at one moment, folded from its stream up to that moment. */
export interface OrderAsOf {
  readonly asOf: string;
  readonly eventsApplied: number;
  /** The write side's fold of the order, with the status in words; `{ exists: false }` before it was placed. */
  readonly order: Record<string, unknown>;
  readonly application: unknown;
  readonly personal: unknown;
  readonly remarks: readonly AuditRemark[];
  readonly transaction: { readonly transactionId: string; readonly merchantName: string } | undefined;
}

/** One field that differs between two moments, by dotted path. */
export interface AuditChange {
  readonly path: string;
  readonly kind: "added" | "changed" | "removed";
  /** Absent when added. */
  readonly before?: unknown;
  /** Absent when removed. */
  readonly after?: unknown;
}

export interface OrderDiff {
  readonly from: string;
  readonly to: string;
  readonly changes: readonly AuditChange[];
  /** The events between the two moments that made the changes. */
  readonly events: readonly AuditEvent[];
}

/** One order in a folder as it stood at a past moment. */
export interface QueueAtRow {
  readonly orderId: string;
  readonly status: string;
  readonly statusLabel: string;
  readonly createdAt: string;
  readonly name: string;
  readonly email: string | null;
  readonly landingDomain: string;
  readonly processingDate: string;
  readonly assigneeName: string | null;
}

/** A folder as it stood at `at`: its rows (newest first, one page) and its count. */
export interface QueueAtMoment {
  readonly at: string;
  readonly folder: QueueKey;
  readonly count: number;
  readonly page: number;
  /** Rows a page holds: the last page may hold fewer. */
  readonly pageSize: number;
  readonly rows: readonly QueueAtRow[];
}

/** The most events a staff member's activity answers: a range that holds more is `truncated`. */
export const STAFF_ACTIVITY_LIMIT = 1_000;

/** Everything one staff member did in a time range, oldest first. */
export interface StaffActivity {
  readonly staffId: string;
  readonly from: string;
  readonly to: string;
  readonly events: readonly AuditEvent[];
  /** True when the range held more than the answer carries (narrow the range). */
  readonly truncated: boolean;
}

/** Where the hash chain breaks first (ADR 0021). */
export interface ChainBreakReport {
  readonly streamId: string;
  readonly streamPosition: string;
  readonly eventId: string;
  /** What does not match: the event's own content, its place in its stream, or the global chain. */
  readonly reason: string;
}

/** The answer of the log's verification: the badge in the Audit area. */
export interface ChainVerification {
  readonly ok: boolean;
  /** Events whose hashes were recomputed. */
  readonly checked: number;
  /** Of those, the ones the global chain covers (the newest wait for the sealer, up to 200 ms). */
  readonly sealed: number;
  readonly firstBreak: ChainBreakReport | null;
  /** The global chain's head hash after the walk, hex: what to anchor outside the system. */
  readonly headHash: string | null;
  readonly verifiedAt: string;
  readonly millis: number;
}

/**
 * One page of a stream's audit timeline (an order's, a team member's, the gateways'), oldest
 * first: unlike the answers above, read from the order_details read model's readable lines,
 * which the order page shows too.
 */
export interface AuditTimelinePage {
  readonly lines: readonly AuditLine[];
  /** Pass as `after` for the next page; null on the last page. */
  readonly next: number | null;
}
