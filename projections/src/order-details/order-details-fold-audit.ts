import { isMailEvent, isOrderEvent, type AnyEvent, type Role } from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";
import { describeEvent, type AuditContext, type KnownStaff } from "./audit-sentence.ts";
import { gatewayRef, staffRef, type NamesFold } from "./order-details-fold-names.ts";
import type { OrdersFold } from "./order-details-fold-orders.ts";
import { actorName, type TableFold } from "./order-details-fold-shared.ts";

/*
 * audit_timeline: one readable line per event of every stream; never holds the traveller's data.
 * It does hold the address a staff member's request came from (the Audit tab's "from which IP"):
 * staff are accountable for what they do, and the line is only shown to Admin and Manager.
 */

export interface AuditRow {
  readonly stream: string;
  readonly stream_position: number;
  readonly log_tx: string;
  readonly log_seq: string;
  readonly event_id: string;
  readonly occurred_at: string;
  readonly order_id: string | null;
  readonly actor_kind: "staff" | "system" | "customer";
  readonly actor_id: string | null;
  /** Staff or system name; "traveller" for the customer, who is never named. */
  readonly actor_name: string;
  readonly actor_role: Role | null;
  /** The address of the staff request that caused it (metadata.requestIp); null for systems and travellers. */
  readonly request_ip: string | null;
  readonly event_type: string;
  readonly summary: string;
}

/**
 * The sentence reads the state before the event (the previous name, the current document): step
 * this fold before `orders` and `names` step the same event.
 */
export const foldAudit = (orders: Pick<OrdersFold, "current">, names: Pick<NamesFold, "known">): TableFold<AuditRow> => {
  const audit: AuditRow[] = [];

  const context = (event: AnyEvent): AuditContext => ({
    currentFileName: isOrderEvent(event) ? (orders.current(event.data.orderId)?.file_name ?? undefined) : undefined,
    staff: (id) => {
      const known = names.known(staffRef(id));
      return known && known.role !== null ? ({ name: known.name, role: known.role, email: known.email ?? "" } satisfies KnownStaff) : undefined;
    },
    gatewayName: (id) => names.known(gatewayRef(id))?.name,
  });

  const step = (projected: ProjectedEvent) => {
    const { event, eventId, streamId } = projected;
    const { actor } = event.metadata;
    audit.push({
      stream: streamId,
      stream_position: Number(projected.streamPosition),
      log_tx: projected.position.tx.toString(),
      log_seq: projected.position.seq.toString(),
      event_id: eventId,
      occurred_at: event.metadata.occurredAt,
      // A mail's line belongs to its order too, though it lives in the mail's stream.
      order_id: isOrderEvent(event) || isMailEvent(event) ? event.data.orderId : null,
      actor_kind: actor.kind,
      actor_id: actor.kind === "staff" ? actor.id : null,
      actor_name: actorName(event),
      actor_role: actor.kind === "staff" ? actor.role : null,
      request_ip: event.metadata.requestIp ?? null,
      event_type: event.type,
      summary: describeEvent(event, context(event)),
    });
  };

  return { step, changes: () => audit };
};
