import * as Result from "effect/Result";
import type { AuditEvent, AuditRemark, OrderAsOf, OrderDiff } from "@etd/contract";
import { comparePositions, type RecordedEvent } from "@etd/event-store";
import {
  decodeEvent,
  isErased,
  isMailEvent,
  isMailRequestType,
  isOrderEvent,
  isPermanentlyDeleted,
  mailStream,
  orderStream,
  remarkText,
  statusLabel,
  type AnyEvent,
  type EventId,
  type OrderEvent,
} from "@etd/events";
import { evolveOrder, initialOrderState, type OrderState } from "@etd/write";
import type { ApiDeps } from "../api-deps.ts";
import type { Handlers } from "../http/endpoint.ts";
import { fail, ok, type Reply } from "../http/reply.ts";
import { diffValues } from "./audit-diff.ts";
import { erasedView, happenedBy, logContext, momentOf, orderIdIn, toAuditEvent } from "./audit-events.ts";

/*
 * One order replayed (CARD-4, DESIGN §5): its full history with its mails', the order as it stood
 * at any moment, and what changed between two moments. All of it is read from the order's own
 * stream and its mails' streams, not from a read model: the log is the audit trail, and replaying
 * it is the proof.
 */

interface Loaded {
  readonly raw: RecordedEvent;
  readonly event: AnyEvent;
}

const decodeStream = (streamId: string, raw: readonly RecordedEvent[], accept: (event: AnyEvent) => boolean): Loaded[] =>
  raw.map((r) => {
    const decoded = decodeEvent(r);
    if (Result.isFailure(decoded) || !accept(decoded.success)) throw new Error(`Unreadable event ${r.eventId} in ${streamId}`);
    return { raw: r, event: decoded.success };
  });

/**
 * Once the order holds a permanent delete, every event of it and of its mails reads as erased
 * (see erasedView). `order` is the order's own stream, which tells.
 */
const erasedIfDeleted = (order: readonly Loaded[], events: Loaded[]): Loaded[] =>
  isPermanentlyDeleted(order.map((e) => e.event)) ? events.map((e) => ({ ...e, event: erasedView(e.event) })) : events;

const FLAGS = ["whatsapp", "telephone", "statusRefund", "voided", "chargeBack", "reportError"] as const;

/**
 * The order as it stood at `atMs`: the write side's own fold of the stream's events that had
 * happened by then. It stops at the first later event, so the state is always one the order
 * really passed through, even if a clock ever stepped back between two appends.
 */
export const foldOrderAsOf = (events: readonly { readonly event: OrderEvent }[], at: { readonly iso: string; readonly ms: number }): OrderAsOf => {
  let state: OrderState = initialOrderState;
  let application: unknown;
  let personal: unknown;
  let transaction: OrderAsOf["transaction"];
  const remarks: AuditRemark[] = [];
  let applied = 0;
  for (const { event } of events) {
    if (!happenedBy(event, at.ms)) break;
    state = evolveOrder(state, event);
    applied++;
    if (event.type === "OrderPlaced") ({ application, personal } = event.data);
    if (event.type === "TransactionDetailsRecorded") {
      const { personal } = event.data;
      transaction = isErased(personal) ? undefined : { transactionId: personal.transactionId, merchantName: personal.merchantName };
    }
    if (event.type === "RemarkAdded") {
      remarks.push({ at: event.metadata.occurredAt, by: event.data.remarkerName, remark: remarkText(event.data), flags: FLAGS.filter((f) => event.data[f]) });
    }
  }
  return {
    asOf: at.iso,
    eventsApplied: applied,
    order: state.exists ? { ...state, statusLabel: statusLabel(state.status) } : { ...state },
    application,
    personal,
    remarks,
    transaction,
  };
};

/** Events in log order as the auditor reads them, each sentence told with the state before it. */
const describeAll = (events: readonly Loaded[]): AuditEvent[] => {
  const context = logContext();
  return events.map(({ raw, event }) => {
    const line = toAuditEvent(raw, event, context.contextFor(event));
    context.step(event);
    return line;
  });
};

export const auditOrderHandlers = (deps: ApiDeps) => {
  /** The order's decoded stream, or the 404 answer. */
  const loadOrder = async (orderIdParam: string | string[] | undefined): Promise<Loaded[] | Reply<never>> => {
    const orderId = orderIdIn(orderIdParam);
    const events = orderId ? decodeStream(orderStream(orderId), await deps.store.readStream(orderStream(orderId)), isOrderEvent) : [];
    return events.length === 0 ? fail(404, `Order ${String(orderIdParam ?? "")} was not found.`) : erasedIfDeleted(events, events);
  };

  /**
   * The order's events and its mails' interleaved by log position: each mail's stream is named
   * by the order event that asked for it (an upload, a resend, a reminder, an invoice), exactly
   * as Email History links them. Sentences get the order's current document as it stood.
   */
  const historyOf = async (order: readonly Loaded[]): Promise<AuditEvent[]> => {
    const mailIds = order.filter(({ event }) => isMailRequestType(event.type)).map(({ raw }) => raw.eventId);
    const mails = await Promise.all(
      mailIds.map(async (mailId) => {
        const streamId = mailStream(mailId as EventId);
        return erasedIfDeleted(order, decodeStream(streamId, await deps.store.readStream(streamId), isMailEvent));
      }),
    );
    return describeAll([...order, ...mails.flat()].sort((a, b) => comparePositions(a.raw.position, b.raw.position)));
  };

  const asOrderEvents = (events: readonly Loaded[]) => events as readonly { readonly raw: RecordedEvent; readonly event: OrderEvent }[];

  return {
    getOrderAuditHistory: async ({ params }) => {
      const events = await loadOrder(params.orderId);
      return Array.isArray(events) ? ok("Order history.", await historyOf(events)) : events;
    },
    getOrderAsOf: async ({ params, input }) => {
      const events = await loadOrder(params.orderId);
      return Array.isArray(events) ? ok("Order as of the moment.", foldOrderAsOf(asOrderEvents(events), momentOf(input.at))) : events;
    },
    getOrderDiff: async ({ params, input }) => {
      const events = await loadOrder(params.orderId);
      if (!Array.isArray(events)) return events;
      const [from, to] = [momentOf(input.from), momentOf(input.to)];
      const { asOf: _a, eventsApplied: _b, ...before } = foldOrderAsOf(asOrderEvents(events), from);
      const { asOf: _c, eventsApplied: _d, ...after } = foldOrderAsOf(asOrderEvents(events), to);
      // Two moments in either order: `changes` always reads from `from` to `to`; the events are
      // those between the earlier and the later one, oldest first.
      const [early, late] = from.ms <= to.ms ? [from, to] : [to, from];
      const between = new Set(events.filter(({ event }) => !happenedBy(event, early.ms) && happenedBy(event, late.ms)).map(({ raw }) => raw.eventId));
      const lines = describeAll(events).filter((line) => between.has(line.eventId));
      const diff: OrderDiff = { from: from.iso, to: to.iso, changes: diffValues(before, after), events: lines };
      return ok("Changes between the two moments.", diff);
    },
  } satisfies Partial<Handlers>;
};
