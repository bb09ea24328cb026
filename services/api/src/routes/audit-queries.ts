import { Result } from "effect";
import { AsOfQuery, DiffQuery } from "@etd/contract/requests";
import { formatPosition, type RecordedEvent } from "@etd/event-store";
import {
  decodeEvent,
  isOrderEvent,
  isPermanentlyDeleted,
  orderStream,
  remarkText,
  statusLabel,
  withRemarkErased,
  type AnyEvent,
  type OrderEvent,
  type OrderId,
} from "@etd/events";
import { evolveOrder, initialOrderState, type OrderState } from "@etd/write";
import type { ApiDeps } from "../api-deps.ts";
import { staffEndpoint, type Endpoint } from "../http/endpoint.ts";
import { fail, ok } from "../http/reply.ts";

/*
 * Auditors (CARD-4, DESIGN §5): an order's full history, the order as it stood at any moment,
 * what changed between two moments, and an export. All of it is read from the order's own stream,
 * not from a read model: the log is the audit trail, and replaying it is the proof.
 */

interface AuditEntry {
  readonly position: string;
  readonly streamPosition: number;
  readonly type: string;
  readonly occurredAt: string;
  readonly actor: AnyEvent["metadata"]["actor"];
  readonly correlationId: string;
  readonly causationId?: string;
  readonly data: unknown;
}

/** The order as of one moment: the write side's own fold, plus what the order was placed with. */
interface OrderAsOf {
  readonly asOf: string;
  readonly eventsApplied: number;
  readonly order: (OrderState & { statusLabel?: string }) | { exists: false };
  readonly application: unknown;
  readonly personal: unknown;
  readonly remarks: readonly { at: string; by: string; remark: string; flags: string[] }[];
  readonly transaction: { transactionId: string; merchantName: string } | undefined;
}

/**
 * Decodes the whole stream. Once it holds a permanent delete, every remark reads as erased: those
 * stored before RemarkAdded version 3 keep their text in the clear, which the key cannot hide.
 * History, as-of, diff and export all read through here.
 */
const decodeAll = (streamId: string, raw: readonly RecordedEvent[]): { raw: RecordedEvent; event: OrderEvent }[] => {
  const events = raw.map((r) => {
    const decoded = decodeEvent(r);
    if (Result.isFailure(decoded) || !isOrderEvent(decoded.success)) throw new Error(`Unreadable event ${r.eventId} in ${streamId}`);
    return { raw: r, event: decoded.success };
  });
  if (!isPermanentlyDeleted(events.map((e) => e.event))) return events;
  return events.map((e) => ({ ...e, event: withRemarkErased(e.event) }));
};

const FLAGS = ["whatsapp", "telephone", "statusRefund", "voided", "chargeBack", "reportError"] as const;

export const foldOrderAsOf = (events: readonly { event: OrderEvent }[], at: string): OrderAsOf => {
  let state: OrderState = initialOrderState;
  let application: unknown;
  let personal: unknown;
  let transaction: OrderAsOf["transaction"];
  const remarks: OrderAsOf["remarks"][number][] = [];
  let applied = 0;
  for (const { event } of events) {
    if (event.metadata.occurredAt > at) break;
    state = evolveOrder(state, event);
    applied++;
    if (event.type === "OrderPlaced") ({ application, personal } = event.data);
    if (event.type === "TransactionDetailsRecorded") transaction = { transactionId: event.data.transactionId, merchantName: event.data.merchantName };
    if (event.type === "RemarkAdded") {
      remarks.push({ at: event.metadata.occurredAt, by: event.data.remarkerName, remark: remarkText(event.data), flags: FLAGS.filter((f) => event.data[f]) });
    }
  }
  return {
    asOf: at,
    eventsApplied: applied,
    order: state.exists ? { ...state, statusLabel: statusLabel(state.status) } : state,
    application,
    personal,
    remarks,
    transaction,
  };
};

export interface Change {
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
}

/** Every leaf that differs between two JSON values, by dotted path. */
export const diffJson = (before: unknown, after: unknown, path = ""): Change[] => {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => diffJson(before[key], after[key], path ? `${path}.${key}` : key));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: path || "(whole)", before, after }];
};

const iso = (text: string) => new Date(text).toISOString();

export const auditQueryEndpoints = (deps: ApiDeps): Endpoint[] => {
  /** The order's decoded stream, or a 404 reply. */
  const load = async (orderIdParam: string | undefined) => {
    const orderId = String(orderIdParam ?? "");
    if (!/^\d{6,20}$/.test(orderId)) return fail(404, `Order ${orderId} was not found.`);
    const streamId = orderStream(orderId as OrderId);
    const events = decodeAll(streamId, await deps.store.readStream(streamId));
    return events.length === 0 ? fail(404, `Order ${orderId} was not found.`) : events;
  };
  const entry = ({ raw, event }: { raw: RecordedEvent; event: OrderEvent }): AuditEntry => ({
    position: formatPosition(raw.position),
    streamPosition: Number(raw.streamPosition),
    type: event.type,
    occurredAt: event.metadata.occurredAt,
    actor: event.metadata.actor,
    correlationId: event.metadata.correlationId,
    ...(event.metadata.causationId ? { causationId: event.metadata.causationId } : {}),
    data: event.data,
  });

  return [
    staffEndpoint({
      method: "get",
      path: "/audit/orders/:orderId/history",
      guard: "audit.read",
      reads: [],
      summary: "Every event of an order, in order, with who, when and what (CARD-4)",
      handle: async ({ req }) => {
        const events = await load(req.params.orderId as string | undefined);
        return Array.isArray(events) ? ok("Order history.", events.map(entry)) : events;
      },
    }),
    staffEndpoint({
      method: "get",
      path: "/audit/orders/:orderId/as-of",
      guard: "audit.read",
      reads: [],
      summary: "The order as it stood at a moment, folded from its stream (?at=ISO time)",
      query: AsOfQuery,
      strictQuery: true,
      handle: async ({ req, input }) => {
        const events = await load(req.params.orderId as string | undefined);
        return Array.isArray(events) ? ok("Order as of the moment.", foldOrderAsOf(events, iso(input.at))) : events;
      },
    }),
    staffEndpoint({
      method: "get",
      path: "/audit/orders/:orderId/diff",
      guard: "audit.read",
      reads: [],
      summary: "What changed on the order between two moments (?from=&to=), and the events that changed it",
      query: DiffQuery,
      strictQuery: true,
      handle: async ({ req, input }) => {
        const events = await load(req.params.orderId as string | undefined);
        if (!Array.isArray(events)) return events;
        const [from, to] = [iso(input.from), iso(input.to)];
        const before = foldOrderAsOf(events, from);
        const after = foldOrderAsOf(events, to);
        const between = events.filter(({ event }) => event.metadata.occurredAt > from && event.metadata.occurredAt <= to).map(entry);
        const { asOf: _a, eventsApplied: _b, ...beforeOrder } = before;
        const { asOf: _c, eventsApplied: _d, ...afterOrder } = after;
        return ok("Changes between the two moments.", { from, to, changes: diffJson(beforeOrder, afterOrder), events: between });
      },
    }),
    staffEndpoint({
      method: "get",
      path: "/audit/orders/:orderId/export",
      guard: "audit.read",
      reads: [],
      summary: "The order's events as JSON lines, one event per line",
      handle: async ({ req }) => {
        const events = await load(req.params.orderId as string | undefined);
        if (!Array.isArray(events)) return events;
        const body = events.map((e) => JSON.stringify(entry(e))).join("\n") + "\n";
        return { httpStatus: 200, body: { status: 1, message: "", data: null }, raw: { contentType: "application/x-ndjson", body, fileName: `order-${String(req.params.orderId)}.jsonl` } };
      },
    }),
  ];
};
