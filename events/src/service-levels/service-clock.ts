import type { AnyEvent, OrderEvent } from "../catalogue.ts";
import type { Actor } from "../shared/metadata.ts";
import type { IsoDateTime } from "../shared/primitives.ts";
import { statusAfter } from "../orders/status-after.ts";
import type { OrderPlaced } from "../orders/order-events.ts";
import type { OrderStatus } from "../orders/order-status.ts";
import type { ServiceLevelPolicySet } from "./service-level-events.ts";

/*
 * An order's service-level clock, derived from its history alone (issue 27, ADR 0036). It runs from
 * payment (a future order: from 00:00 UTC of its processing date) until the document is uploaded,
 * pauses while the order waits on others (Awaiting Customer, Awaiting Govt), and stops while the
 * order is finished another way (Completed without a document, Refund, Completed Refund,
 * Chargeback, Deleted); a move back to a working status starts it again. The queues keep the fold
 * in their row, the order page replays it with its segments, the audit as of any moment: all three
 * call this module, so they cannot disagree.
 */

export type PolicyTerms = Pick<ServiceLevelPolicySet["data"], "version" | "allowedMinutes">;

/** In force until an Admin sets the first policy (version 0): Standard 24 h, Priority 4 h, a future order 24 h from its processing date. */
export const DEFAULT_POLICY: PolicyTerms = { version: 0, allowedMinutes: { standard: 24 * 60, priority: 4 * 60, future: 24 * 60 } };

/** Which of the policy's allowances an order gets. */
export type ClockKind = keyof PolicyTerms["allowedMinutes"];

export type ClockState = "running" | "paused" | "stopped" | "met";

/** What the queues keep of a clock: enough to say when it is due, and to go on folding. */
export interface ClockFold {
  readonly policyVersion: number;
  readonly kind: ClockKind;
  readonly allowedMs: number;
  readonly state: ClockState;
  /** Running time counted before `since`. */
  readonly usedMs: number;
  /** When the present state began; a running clock counts from here (for a future order, no earlier than its processing date). */
  readonly since: IsoDateTime;
  /** The earliest moment time counts: payment, or a future order's processing date at 00:00 UTC. */
  readonly countsFrom: IsoDateTime;
}

const STATE_OF_STATUS: { readonly [S in OrderStatus]: Exclude<ClockState, "met"> } = {
  New: "running",
  Priority: "running",
  Pending: "running",
  ContactCustomer: "running",
  CustomerCalled: "running",
  Awaiting: "paused",
  AwaitingGovt: "paused",
  Completed: "stopped",
  Refund: "stopped",
  CompletedRefund: "stopped",
  ChargeBack: "stopped",
  Deleted: "stopped",
};

const ms = (at: string): number => Date.parse(at);
const iso = (at: number): IsoDateTime => new Date(at).toISOString() as IsoDateTime;
const later = (a: IsoDateTime, b: IsoDateTime): IsoDateTime => (ms(a) >= ms(b) ? a : b);

/** A future order is one whose processing date is after the day it was paid (UTC, as the queues show dates, QUEUE-6). */
export const clockKindOf = (placed: OrderPlaced["data"], paidAt: IsoDateTime): ClockKind =>
  placed.processingDate > paidAt.slice(0, 10) ? "future" : placed.processingMode;

/** The clock as the order was paid, under the policy in force then. */
export const startClock = (placed: OrderPlaced, policy: PolicyTerms): ClockFold => {
  const paidAt = placed.metadata.occurredAt;
  const kind = clockKindOf(placed.data, paidAt);
  const countsFrom = kind === "future" ? (`${placed.data.processingDate}T00:00:00.000Z` as IsoDateTime) : paidAt;
  return { policyVersion: policy.version, kind, allowedMs: policy.allowedMinutes[kind] * 60_000, state: "running", usedMs: 0, since: countsFrom, countsFrom };
};

/** The state this event puts the clock in, or undefined when it leaves the clock as it was. */
const stateAfter = (fold: ClockFold, event: OrderEvent): ClockState | undefined => {
  if (fold.state === "met") return undefined;
  if (event.type === "DocumentUploaded") return "met";
  const status = statusAfter(event);
  return status === undefined ? undefined : STATE_OF_STATUS[status];
};

/** Running time used by `at` (never negative, and nothing before the clock counts). */
export const usedMsAt = (fold: ClockFold, at: IsoDateTime): number =>
  fold.state === "running" ? fold.usedMs + Math.max(0, ms(at) - ms(fold.since)) : fold.usedMs;

export const advanceClock = (fold: ClockFold, event: OrderEvent): ClockFold => {
  const next = stateAfter(fold, event);
  if (next === undefined || next === fold.state) return fold;
  const at = event.metadata.occurredAt;
  return { ...fold, state: next, usedMs: usedMsAt(fold, at), since: next === "running" ? later(at, fold.countsFrom) : at };
};

/** When a running clock reaches its allowance; none while it is paused, stopped or met. */
export const dueAt = (fold: ClockFold): IsoDateTime | undefined =>
  fold.state === "running" ? iso(ms(fold.since) + fold.allowedMs - fold.usedMs) : undefined;

/** Who started a segment, as the order page names them. */
export interface SegmentCause {
  readonly eventType: OrderEvent["type"];
  readonly actor: Actor;
}

export interface ClockSegment {
  /** `waiting`: a future order before its processing date, not counted. */
  readonly state: ClockState | "waiting";
  readonly from: IsoDateTime;
  /** Absent for the segment still going on at `asOf`. */
  readonly to?: IsoDateTime;
  /** The running time this segment counted (0 but for running ones). */
  readonly countedMs: number;
  readonly cause: SegmentCause;
}

export interface ClockReplay {
  readonly fold: ClockFold;
  readonly segments: readonly ClockSegment[];
  readonly usedMs: number;
  readonly dueAt?: IsoDateTime;
}

/**
 * The whole clock of an order as of `asOf`: its segments, each with the event and actor that
 * started it, and the time used against the time allowed. Only events up to `asOf` count (the
 * audit's as-of). Undefined before the order was placed.
 */
export const replayClock = (history: readonly OrderEvent[], policy: PolicyTerms, asOf: IsoDateTime): ClockReplay | undefined => {
  const placed = history.find((event): event is OrderPlaced => event.type === "OrderPlaced");
  if (placed === undefined || ms(placed.metadata.occurredAt) > ms(asOf)) return undefined;
  let fold = startClock(placed, policy);
  const starts: { state: ClockState; at: IsoDateTime; cause: SegmentCause }[] = [{ state: "running", at: placed.metadata.occurredAt, cause: { eventType: placed.type, actor: placed.metadata.actor } }];
  for (const event of history) {
    if (event === placed || ms(event.metadata.occurredAt) > ms(asOf)) continue;
    const next = advanceClock(fold, event);
    if (next.state !== fold.state) starts.push({ state: next.state, at: event.metadata.occurredAt, cause: { eventType: event.type, actor: event.metadata.actor } });
    fold = next;
  }
  const segments: ClockSegment[] = [];
  starts.forEach((start, i) => {
    const end = starts[i + 1]?.at;
    const counted = (from: IsoDateTime, to: IsoDateTime | undefined) => Math.max(0, ms(to ?? asOf) - ms(from));
    const segment = (state: ClockSegment["state"], from: IsoDateTime, to: IsoDateTime | undefined, countedMs: number): ClockSegment =>
      to === undefined ? { state, from, countedMs, cause: start.cause } : { state, from, to, countedMs, cause: start.cause };
    if (start.state !== "running" || ms(start.at) >= ms(fold.countsFrom)) {
      segments.push(segment(start.state, start.at, end, start.state === "running" ? counted(start.at, end) : 0));
      return;
    }
    // Running before a future order's processing date: waiting until then, counted from then.
    const until = end !== undefined && ms(end) < ms(fold.countsFrom) ? end : fold.countsFrom;
    segments.push(segment("waiting", start.at, until === fold.countsFrom && ms(asOf) < ms(until) ? undefined : until, 0));
    if (ms(until) < ms(fold.countsFrom) || ms(asOf) < ms(fold.countsFrom)) return;
    segments.push(segment("running", fold.countsFrom, end, counted(fold.countsFrom, end)));
  });
  const due = dueAt(fold);
  return { fold, segments, usedMs: usedMsAt(fold, asOf), ...(due === undefined ? {} : { dueAt: due }) };
};

/**
 * The order events that move an order's status or its clock (statusAfter's cases, and the upload
 * that meets the clock): what the queues, the reports and the dashboard fold an order by.
 */
export const STATUS_OR_CLOCK_EVENTS: ReadonlySet<AnyEvent["type"]> = new Set<AnyEvent["type"]>([
  "OrderPlaced",
  "OrderAssigned",
  "OrderStatusChanged",
  "OrderMovedToOriginalFolder",
  "OrderRefundRequested",
  "OrderRefunded",
  "OrderChargebackMarked",
  "OrderPermanentlyDeleted",
  "DocumentUploaded",
]);

/** The policy in force for an order paid at `paidAt`: the last one set before it, else the default. */
export const policyInForce = (policies: readonly ServiceLevelPolicySet[], paidAt: IsoDateTime): PolicyTerms => {
  let inForce: PolicyTerms = DEFAULT_POLICY;
  for (const policy of policies) if (ms(policy.metadata.occurredAt) <= ms(paidAt)) inForce = policy.data;
  return inForce;
};
