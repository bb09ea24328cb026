import { isMailEvent, isOrderEvent, withPersonalErased, type AnyEvent, type Role } from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";
import { describeEvent, type AuditContext, type KnownStaff } from "./audit-sentence.ts";
import { gatewayRef, staffRef, type NamesFold } from "./order-details-fold-names.ts";
import { isErasedMail, type MailsFold } from "./order-details-fold-mails.ts";
import type { OrdersFold } from "./order-details-fold-orders.ts";
import { actorName, type TableFold } from "./order-details-fold-shared.ts";

/*
 * audit_timeline: one readable line per event of every stream. It names no traveller, but its
 * sentences quote what staff may see of an order while it exists: a file's name, a transaction's
 * id and merchant, a provider's answer, a download's device (all sealed in the events). Each line
 * therefore keeps, beside the sentence, the sentence as it reads once the order is erased
 * (`erased_summary`, only where the two differ), and a permanent delete swaps it in: the same
 * words the line would have had if the key had been gone when it was written.
 *
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
  /** The sentence once the order is erased, where it differs from `summary`; null otherwise. */
  readonly erased_summary: string | null;
}

/** What the sentence of an event about an erased order reads: its personal part gone, no file named. */
const erasedContext = (context: AuditContext): AuditContext => ({ ...context, currentFileName: undefined });

/**
 * The sentence reads the state before the event (the previous name, the current document): step
 * this fold before `orders` and `names` step the same event.
 */
/** The sentence, and its erased form where that differs (events of other streams have no erased form). */
const erasedSentence = (event: AnyEvent, context: AuditContext): Pick<AuditRow, "summary" | "erased_summary"> => ({
  summary: describeEvent(withPersonalErased(event), erasedContext(context)),
  erased_summary: null,
});

const sentences = (event: AnyEvent, context: AuditContext): Pick<AuditRow, "summary" | "erased_summary"> => {
  const summary = describeEvent(event, context);
  if (!isOrderEvent(event) && !isMailEvent(event)) return { summary, erased_summary: null };
  const erased = describeEvent(withPersonalErased(event), erasedContext(context));
  return { summary, erased_summary: erased === summary ? null : erased };
};

export const foldAudit = (orders: Pick<OrdersFold, "current">, names: Pick<NamesFold, "known">, mails: Pick<MailsFold, "current">): TableFold<AuditRow> => {
  const audit: AuditRow[] = [];

  const context = (event: AnyEvent): AuditContext => ({
    currentFileName: isOrderEvent(event) ? (orders.current(event.data.orderId)?.file_name ?? undefined) : undefined,
    staff: (id) => {
      const known = names.known(staffRef(id));
      return known && known.role !== null ? ({ name: known.name, role: known.role, email: known.email ?? "" } satisfies KnownStaff) : undefined;
    },
    gatewayName: (id) => names.known(gatewayRef(id))?.name,
  });

  // An event folded after its order's delete (a mail's failure recorded while the mail's key still
  // existed) reads as erased from the start.
  const erasedAlready = (event: AnyEvent): boolean =>
    (isOrderEvent(event) && orders.current(event.data.orderId)?.erased === true) || (isMailEvent(event) && isErasedMail(mails.current(event.data.mailId)));

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
      ...(erasedAlready(event) ? erasedSentence(event, context(event)) : sentences(event, context(event))),
    });
    // The order's earlier lines in this batch read as erased from now on; the projection does the
    // same for the lines of earlier batches (BatchChanges.erasedOrders).
    if (event.type === "OrderPermanentlyDeleted") {
      const { orderId } = event.data;
      for (const [i, line] of audit.entries()) {
        if (line.order_id === orderId && line.erased_summary !== null) audit[i] = { ...line, summary: line.erased_summary, erased_summary: null };
      }
    }
  };

  return { step, changes: () => audit };
};
