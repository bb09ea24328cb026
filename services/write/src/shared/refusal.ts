/*
 * Why a decider said no. A refusal is a value, never a thrown error: every one is something a
 * user (or a racing colleague) can cause, and its message is shown to them as it is.
 */

/** The HTTP edge maps these to 404, 409, 403 and 422 (or 400). */
export type RefusalReason = "not_found" | "conflict" | "forbidden" | "invalid";

export interface Refusal {
  readonly _tag: "Refused";
  readonly reason: RefusalReason;
  /** A user-facing English sentence, e.g. "Order 100234 was not found." */
  readonly message: string;
}

export const refuse = (reason: RefusalReason, message: string): Refusal => ({
  _tag: "Refused",
  reason,
  message,
});

export const isRefusal = (value: unknown): value is Refusal =>
  typeof value === "object" &&
  value !== null &&
  "_tag" in value &&
  (value as { readonly _tag: unknown })._tag === "Refused";
