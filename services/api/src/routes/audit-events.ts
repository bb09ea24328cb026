import type { AuditActor, AuditEvent } from "@etd/contract";
import { momentMs } from "@etd/contract/requests";
import { formatPosition, type RecordedEvent } from "@etd/event-store";
import { isErased, isMailEvent, isOrderEvent, isOrderId, withPersonalErased, type Actor, type AnyEvent, type OrderId } from "@etd/events";
import { describeAuditEvent, type AuditContext, type KnownStaff } from "@etd/projections";

/*
 * What every audit answer shares (CARD-4): an event as an auditor reads it, the context its
 * sentence needs, and the moments the queries compare events with. Everything here is folded
 * from events the caller read from the log; nothing reads a read model.
 */

/** The actor as the contract flattens it: "The traveller" is never named (metadata holds no personal data). */
export const auditActor = (event: AnyEvent): AuditActor => auditedActor(event.metadata.actor);

/** Who acted, as every audit answer (and the service-level clock's segments) shows them. */
export const auditedActor = (actor: Actor): AuditActor => {
  switch (actor.kind) {
    case "staff":
      return { kind: "staff", id: actor.id, name: actor.name, role: actor.role };
    case "system":
      return { kind: "system", id: null, name: actor.name, role: null };
    case "customer":
      return { kind: "customer", id: null, name: "The traveller", role: null };
  }
};

/**
 * The order an event concerns, for links: an order's own events, its mails' (which live in
 * `mail-<id>` streams but name their order) and an invoice number issued for it.
 */
export const orderIdOf = (event: AnyEvent): string | null => {
  if (isOrderEvent(event) || isMailEvent(event)) return event.data.orderId;
  if (event.type === "InvoiceNumberIssued") return event.data.orderId;
  return null;
};

/** `context` is what the log said just before this event (see LogContext). */
export const toAuditEvent = (raw: RecordedEvent, event: AnyEvent, context: AuditContext): AuditEvent => ({
  stream: raw.streamId,
  streamPosition: Number(raw.streamPosition),
  position: formatPosition(raw.position),
  eventId: raw.eventId,
  type: event.type,
  occurredAt: event.metadata.occurredAt,
  actor: auditActor(event),
  // Metadata only ever holds a staff request's address; a traveller's is personal and sealed.
  requestIp: event.metadata.actor.kind === "staff" ? (event.metadata.requestIp ?? null) : null,
  correlationId: event.metadata.correlationId,
  summary: describeAuditEvent(event, context),
  orderId: orderIdOf(event),
  data: event.data,
});

/**
 * The names and documents a sentence refers to, as the log stood before each event: staff by id
 * (for "removed Paolo Reyes from the team"), gateways by id, and each order's current document
 * (for "asked AWS to mail etravel.pdf again"). Step it with every event in log order, after
 * describing the event: the sentence reads the state before it.
 */
export interface LogContext {
  readonly contextFor: (event: AnyEvent) => AuditContext;
  readonly step: (event: AnyEvent) => void;
}

export const logContext = (): LogContext => {
  const staff = new Map<string, KnownStaff>();
  const gateways = new Map<string, string>();
  const documents = new Map<string, string>();
  return {
    contextFor: (event) => ({
      currentFileName: isOrderEvent(event) ? documents.get(event.data.orderId) : undefined,
      staff: (id) => staff.get(id),
      gatewayName: (id) => gateways.get(id),
    }),
    step: (event) => {
      switch (event.type) {
        case "StaffMemberAdded":
        case "StaffMemberUpdated":
          staff.set(event.data.staffId, { name: event.data.name, role: event.data.role, email: event.data.email });
          break;
        case "GatewayRegistered":
          gateways.set(event.data.gatewayId, event.data.gatewayName);
          break;
        case "DocumentUploaded":
          if (isErased(event.data.personal)) documents.delete(event.data.orderId);
          else documents.set(event.data.orderId, event.data.personal.fileName);
          break;
        case "OrderPermanentlyDeleted":
          // The file's name is the traveller's document: not named once the order is erased.
          documents.delete(event.data.orderId);
          break;
      }
    },
  };
};

/**
 * An event of a permanently deleted order, or of one of its mails, as the audit shows it: its
 * personal part erased. The key is gone, so events sealed since issue 25 read so already; older
 * ones kept some of it in the clear (remarks before RemarkAdded version 3, file names, transaction
 * details, a provider's answer before their version 2) and are erased here. The sentences then say
 * "the document" and leave the rest out. What the log stores is unchanged; the chain is over the
 * stored bytes.
 */
export const erasedView = (event: AnyEvent): AnyEvent => withPersonalErased(event);

/** The context a sentence about an erased order is told with: no document is named. */
export const erasedContext = (context: AuditContext): AuditContext => ({ ...context, currentFileName: undefined });

/** The order a path's `:orderId` names, or undefined: the audit answers such a path 404, as an order it cannot find. */
export const orderIdIn = (param: string | string[] | undefined): OrderId | undefined => (typeof param === "string" && isOrderId(param) ? param : undefined);

/** A moment of the query string (already checked by the contract's Moment) as an instant, read as the contract reads it. */
export const momentOf = (text: string): { readonly iso: string; readonly ms: number } => {
  const ms = momentMs(text);
  return { iso: new Date(ms).toISOString(), ms };
};

/**
 * Whether an event had happened by a moment. Compared as instants, so a moment equal to an
 * event's `occurredAt` (the slider asks at each event's time) includes that event.
 */
export const happenedBy = (event: AnyEvent, atMs: number): boolean => Date.parse(event.metadata.occurredAt) <= atMs;
