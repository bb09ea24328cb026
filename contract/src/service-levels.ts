import type { AuditActor } from "./audit.ts";

/*
 * Service levels (issue 27, ADR 0036): the policy an Admin sets, its versions, and an order's
 * clock as the order page's "Service level" panel and the auditor's as-of show it. Types only:
 * the API answers with them, the web app reads them. The clock itself is derived by one pure
 * module (@etd/events service-clock); these are its answer's shape.
 */

/** Minutes allowed from payment (a future order: from its processing date) to the document. */
export interface AllowedMinutes {
  readonly standard: number;
  readonly priority: number;
  readonly future: number;
}

/** One version of the policy; version 0 is the default, in force until an Admin sets one (no one set it). */
export interface ServiceLevelPolicyVersion {
  readonly version: number;
  readonly allowedMinutes: AllowedMinutes;
  /** Who set it, as the audit shows actors; null for the default. */
  readonly setBy: AuditActor | null;
  /** When it was set (ISO); null for the default. */
  readonly setAt: string | null;
}

/** The policy in force now and every version set, newest first (the default last). */
export interface ServiceLevelPolicies {
  readonly inForce: ServiceLevelPolicyVersion;
  readonly versions: readonly ServiceLevelPolicyVersion[];
}

/** running: counting; paused: waiting on others; stopped: finished another way; met: the document is uploaded; waiting: a future order before its processing date. */
export type ServiceClockState = "running" | "paused" | "stopped" | "met" | "waiting";

/** Which allowance the order runs under: its processing mode, or `future` for a future order. */
export type ServiceClockKind = keyof AllowedMinutes;

/** A stretch of the clock in one state, with the event and the member that started it. */
export interface ServiceClockSegment {
  readonly state: ServiceClockState;
  /** ISO moments; `to` is null for the segment still going on at the answer's `asOf`. */
  readonly from: string;
  readonly to: string | null;
  /** The running time it counted, in milliseconds (0 but for running segments). */
  readonly countedMs: number;
  /** The event that started it ("OrderAssigned"). */
  readonly eventType: string;
  readonly actor: AuditActor;
  /** The order's status from `from` on, as staff read it ("Awaiting Customer"). */
  readonly status: string;
}

/** An order's clock at one moment. */
export interface ServiceClockReading {
  readonly state: ServiceClockState;
  readonly kind: ServiceClockKind;
  /** The policy version in force when the order was paid. */
  readonly policyVersion: number;
  readonly usedMs: number;
  readonly allowedMs: number;
  /** Time left (negative: overdue by that much); counts down only while the clock runs. */
  readonly leftMs: number;
  /** When a running clock reaches its allowance; null while it is not running. */
  readonly dueAt: string | null;
  readonly segments: readonly ServiceClockSegment[];
}

/** The clock of an order as of `asOf` (now, unless asked); `clock` is null before the order was paid. */
export interface ServiceClockAnswer {
  readonly orderId: string;
  readonly asOf: string;
  readonly clock: ServiceClockReading | null;
}
