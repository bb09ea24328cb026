import type { PlannedRequest } from "./burst-plan.ts";

/*
 * Reads the event log as an auditor would after a crash (R4) and lists every way it breaks the
 * promises of an append: a stream with a gap, a request whose events were split or written in
 * more than one transaction, a command whose events are not the whole of what it decides, a
 * 2xx answer with nothing behind it, a refusal with something behind it.
 *
 * The order status is folded here from the raw events, independently of the deciders under
 * test, and only as far as this needs: which status an event moved the order from and to.
 */

export interface LoggedEvent {
  readonly streamId: string;
  readonly streamPosition: number;
  /** The committing transaction: one command's events must share it. */
  readonly tx: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly correlationId: string | undefined;
}

/** What the client saw: an HTTP status, or the connection failing (the process died). */
export type Outcome = { readonly kind: "answered"; readonly status: number } | { readonly kind: "failed"; readonly error: string };

export interface AuditReport {
  readonly problems: string[];
  readonly events: number;
  readonly streams: number;
  /** Appends seen in the log: runs of events with one correlation id. */
  readonly appends: number;
  /** Appends made by the burst's requests, and how many of those hold two events. */
  readonly burstAppends: number;
  readonly twoEventAppends: number;
}

interface OrderView {
  readonly status: string;
  readonly mode: string;
}

const intakeStatus = (mode: string) => (mode === "priority" ? "Priority" : "New");

const evolve = (view: OrderView | undefined, event: LoggedEvent): OrderView | undefined => {
  const data = event.data;
  if (event.type === "OrderPlaced") {
    const mode = String(data.processingMode);
    return { mode, status: intakeStatus(mode) };
  }
  if (!view) return view;
  switch (event.type) {
    case "OrderAssigned":
      return { ...view, status: "Pending" };
    case "OrderStatusChanged":
    case "OrderMovedToOriginalFolder":
      return { ...view, status: String(data.to) };
    case "OrderRefundRequested":
      return { ...view, status: "Refund" };
    case "OrderRefunded":
      return { ...view, status: "CompletedRefund" };
    case "OrderChargebackMarked":
      return { ...view, status: "ChargeBack" };
    case "OrderPermanentlyDeleted":
      return { ...view, status: "Deleted" };
    default:
      return view;
  }
};

/** One line per event, naming what a reader of the stream relies on. */
const signature = (event: LoggedEvent): string => {
  const data = event.data;
  let text = event.type;
  if (event.type === "RemarkAdded") {
    if (data.chargeBack === true) text += " chargeBack";
    if (data.statusRefund === true) text += " statusRefund";
  }
  if (typeof data.from === "string") text += ` from ${data.from}`;
  if (typeof data.to === "string") text += ` to ${data.to}`;
  return text;
};

/** The whole of what the command decides on an order in this state. */
const expectedSignatures = (request: PlannedRequest, view: OrderView): string[] => {
  const { command } = request;
  const from = view.status;
  switch (command.kind) {
    case "remark":
      if (command.flag === "chargeBack") {
        return ["RemarkAdded chargeBack", ...(from === "ChargeBack" ? [] : [`OrderChargebackMarked from ${from}`])];
      }
      if (command.flag === "statusRefund") {
        const refunding = from === "Refund" || from === "CompletedRefund";
        return ["RemarkAdded statusRefund", ...(refunding ? [] : [`OrderRefundRequested from ${from}`])];
      }
      return ["RemarkAdded"];
    case "assign":
      return [`OrderAssigned from ${from}`];
    case "change-status":
      return [`OrderStatusChanged from ${from} to ${command.to}`];
    case "move-to-original":
      return [`OrderMovedToOriginalFolder from ${from} to ${intakeStatus(view.mode)}`];
  }
};

const isSuccess = (outcome: Outcome | undefined) => outcome?.kind === "answered" && outcome.status >= 200 && outcome.status < 300;

/** `events` in any order; `requests` the burst as planned; `outcomes` by request id (absent: never sent). */
export const auditLog = (
  events: readonly LoggedEvent[],
  requests: readonly PlannedRequest[],
  outcomes: ReadonlyMap<string, Outcome>,
): AuditReport => {
  const problems: string[] = [];
  const planned = new Map(requests.map((r) => [r.requestId, r]));
  const streams = new Map<string, LoggedEvent[]>();
  for (const event of events) {
    const stream = streams.get(event.streamId) ?? [];
    stream.push(event);
    streams.set(event.streamId, stream);
  }

  let appends = 0;
  let burstAppends = 0;
  let twoEventAppends = 0;
  const written = new Set<string>();

  for (const [streamId, unsorted] of streams) {
    const stream = [...unsorted].sort((a, b) => a.streamPosition - b.streamPosition);
    const gap = stream.findIndex((event, i) => event.streamPosition !== i + 1);
    if (gap !== -1) {
      problems.push(`${streamId}: stream positions are not 1..${stream.length} (position ${stream[gap]!.streamPosition} at index ${gap})`);
    }

    let view: OrderView | undefined;
    const seenHere = new Set<string | undefined>();
    for (let start = 0; start < stream.length; ) {
      const correlationId = stream[start]!.correlationId;
      let end = start + 1;
      while (end < stream.length && stream[end]!.correlationId === correlationId) end++;
      const run = stream.slice(start, end);
      start = end;
      appends++;

      const where = `${streamId} @${run[0]!.streamPosition}`;
      if (correlationId === undefined) problems.push(`${where}: an event without a correlationId`);
      if (seenHere.has(correlationId)) problems.push(`${where}: request ${correlationId}'s events are not contiguous`);
      seenHere.add(correlationId);
      const transactions = new Set(run.map((e) => e.tx));
      if (transactions.size > 1) problems.push(`${where}: request ${correlationId} was written in ${transactions.size} transactions`);

      const request = correlationId === undefined ? undefined : planned.get(correlationId);
      if (request && correlationId !== undefined) {
        burstAppends++;
        if (run.length === 2) twoEventAppends++;
        written.add(correlationId);
        const outcome = outcomes.get(correlationId);
        if (!outcome) problems.push(`${where}: request ${correlationId} was never sent, yet has events`);
        else if (outcome.kind === "answered" && !isSuccess(outcome)) {
          problems.push(`${where}: request ${correlationId} was answered ${outcome.status}, yet has events`);
        }
        if (streamId !== `order-${request.orderId}`) problems.push(`${where}: request ${correlationId} was for order ${request.orderId}`);
        else if (!view) problems.push(`${where}: request ${correlationId} wrote to an order that was never placed`);
        else {
          const expected = expectedSignatures(request, view);
          const actual = run.map(signature);
          if (JSON.stringify(actual) !== JSON.stringify(expected)) {
            problems.push(`${where}: request ${correlationId} (${JSON.stringify(request.command)}) wrote ${JSON.stringify(actual)}, its decision is ${JSON.stringify(expected)}`);
          }
        }
      }
      for (const event of run) view = evolve(view, event);
    }
  }

  for (const request of requests) {
    const outcome = outcomes.get(request.requestId);
    if (isSuccess(outcome) && !written.has(request.requestId)) {
      problems.push(`request ${request.requestId} was answered ${(outcome as { status: number }).status}, but no event carries it`);
    }
  }

  return { problems, events: events.length, streams: streams.size, appends, burstAppends, twoEventAppends };
};
