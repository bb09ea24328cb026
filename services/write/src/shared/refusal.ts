import { ORDER_CHANGED_MESSAGE } from "@etd/events";
/*
 * Why a decider said no. A refusal is a value, never a thrown error: every one is something a
 * user (or a racing colleague) can cause, and its message is shown to them as it is.
 */

/**
 * The HTTP edge maps these to 404, 409, 403 and 422 (or 400), and "changed" to 409. "changed" is
 * mostly the handler's (the stream moved on past the version the user saw, so nothing was decided
 * at all; that one carries the version). A decider answers it only for a precondition the command
 * itself carries: the status and assignee the member saw when selecting the order (issue 16).
 */
export type RefusalReason = "not_found" | "conflict" | "forbidden" | "invalid" | "changed";

/** A decider's answer: the command was weighed against the current state and refused. */
export interface DecidedRefusal {
  readonly _tag: "Refused";
  readonly reason: RefusalReason;
  /** A user-facing English sentence, e.g. "Order 100234 was not found." */
  readonly message: string;
}

/** The handler's answer to a stale click (`expectedVersion` behind the stream). */
export interface ChangedRefusal {
  readonly _tag: "Refused";
  readonly reason: "changed";
  readonly message: string;
  /** The stream's version now: what the page shows once it has caught up, and sends next time. */
  readonly version: bigint;
}

export type Refusal = DecidedRefusal | ChangedRefusal;


export const refuse = (reason: DecidedRefusal["reason"], message: string): DecidedRefusal => ({
  _tag: "Refused",
  reason,
  message,
});

export const refuseChanged = (version: bigint): ChangedRefusal => ({
  _tag: "Refused",
  reason: "changed",
  message: ORDER_CHANGED_MESSAGE,
  version,
});

/** The handler's stale-version answer, as opposed to a decider's refusal with the same reason. */
export const isStaleVersion = (refusal: Refusal): refusal is ChangedRefusal => "version" in refusal;

export const isRefusal = (value: unknown): value is Refusal =>
  typeof value === "object" &&
  value !== null &&
  "_tag" in value &&
  (value as { readonly _tag: unknown })._tag === "Refused";
