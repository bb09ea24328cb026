import * as Schema from "effect/Schema";
import { MessageId, StaffId } from "./ids.ts";
import { IsoDateTime, NonEmptyText } from "./primitives.ts";
import { Role } from "./role.ts";

/** A signed-in staff member. Name and role as they were at the time: the audit shows them. */
export const StaffActor = Schema.Struct({
  kind: Schema.Literal("staff"),
  id: StaffId,
  name: NonEmptyText,
  role: Role,
});

/** The system itself: order intake, the demo generator, a reactor (mail, reminders, PDFs). */
export const SystemActor = Schema.Struct({
  kind: Schema.Literal("system"),
  name: NonEmptyText,
});

/**
 * A traveller on the public pages, proven by order id + e-mail. It carries nothing else, because
 * metadata is never encrypted and so must hold no personal data (DESIGN §3).
 */
export const CustomerActor = Schema.Struct({
  kind: Schema.Literal("customer"),
});

export const Actor = Schema.Union([StaffActor, SystemActor, CustomerActor]).annotate({
  expected: 'an actor of kind "staff", "system" or "customer"',
});
export type Actor = typeof Actor.Type;
export type StaffActor = typeof StaffActor.Type;

/**
 * Carried by every event; the audit trail is the event log itself. Metadata has no version of its
 * own: it only ever gains optional fields, so every stored event stays readable.
 */
export const EventMetadata = Schema.Struct({
  actor: Actor,
  /** Shared by every event one user action led to, across streams and reactors. */
  correlationId: MessageId,
  /** The command or event this one directly follows from; absent for a user's own action. */
  causationId: Schema.optionalKey(MessageId),
  /**
   * Staff requests only. A traveller's IP address is personal data and goes, encrypted, in the
   * event's `personal` part instead.
   */
  requestIp: Schema.optionalKey(
    Schema.String.check(
      Schema.isPattern(/^[0-9A-Fa-f:.]{2,45}$/, { message: "must be an IPv4 or IPv6 address" }),
    ),
  ),
  occurredAt: IsoDateTime,
});
export type EventMetadata = typeof EventMetadata.Type;
