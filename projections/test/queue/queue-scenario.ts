import * as Result from "effect/Result";
import type { AnyEvent, EventMetadata, OrderEvent, OrderId, OrderStatus, Role, StaffId, WithoutMetadata } from "@etd/events";
import {
  decodePlaceOrderRequest,
  isRefusal,
  orderDecider,
  type OrderCommand,
  type OrderState,
  type PlaceOrderRequestBody,
  type Refusal,
} from "@etd/write";
import { generateDemoOrders } from "@etd/demo";
import { toLog } from "../support/projection-harness.ts";
import type { ProjectedEvent } from "../../src/engine/projection.ts";

/*
 * Realistic event sequences for the queue tests: commands go through the real order decider, so
 * every sequence is one the write side could have produced. The scenario also keeps each order's
 * state as the write side folds it, which the tests use as the independent truth to compare
 * the read model with.
 */

export interface Staff {
  readonly id: StaffId;
  readonly name: string;
  readonly role: Role;
}

export const staff = (id: string, name: string, role: Role = "Team"): Staff => ({ id: id as StaffId, name, role });

export const ADMIN = staff("staff-admin", "Ana Admin", "Admin");
export const MARIA = staff("staff-maria", "Maria Santos");
export const JOSE = staff("staff-jose", "Jose Reyes");

/** The demo's "today": demo orders are created in the 90 days before it. */
export const NOW = new Date("2025-03-14T12:00:00.000Z");
export const TODAY = "2025-03-14";

type Entry = Parameters<typeof toLog>[0][number];

const metadataOf = (actor: Staff | undefined): Omit<EventMetadata, "occurredAt"> =>
  actor === undefined
    ? { actor: { kind: "system", name: "order-intake" }, correlationId: "test-intake" }
    : { actor: { kind: "staff", id: actor.id, name: actor.name, role: actor.role }, correlationId: "test-request" };

export interface Scenario {
  /** Place-order request bodies from the demo generator, decoded as intake decodes them. */
  place(overrides?: Partial<PlaceOrderRequestBody>, index?: number): OrderId;
  /** Runs one command through the decider; a refusal is returned, not thrown. */
  run(command: OrderCommand, actor?: Staff): readonly WithoutMetadata<OrderEvent>[] | Refusal;
  /** Like run, but a refusal fails the test. */
  must(command: OrderCommand, actor?: Staff): void;
  assign(orderId: OrderId, by: Staff): void;
  move(orderId: OrderId, to: OrderStatus, by?: Staff): void;
  remove(orderId: OrderId, by?: Staff): void;
  eraseForever(orderId: OrderId): void;
  backToOriginal(orderId: OrderId, by?: Staff): void;
  requestRefund(orderId: OrderId, today: string, by?: Staff): void;
  refunded(orderId: OrderId, by?: Staff): void;
  chargeback(orderId: OrderId, by?: Staff): void;
  /** A staff-stream event (e.g. a rename). */
  staffEvent(event: WithoutMetadata<AnyEvent>, streamId: string): void;
  /** Everything decided so far, as the log would hold it. */
  log(): ProjectedEvent[];
  /** Only what was decided since the last call (for applying in steps). */
  drain(): ProjectedEvent[];
  state(orderId: OrderId): OrderState;
  orderIds(): OrderId[];
}

export const createScenario = (options: { seed?: number; pool?: number } = {}): Scenario => {
  const bodies = generateDemoOrders({ seed: options.seed ?? 11, count: options.pool ?? 200, now: NOW });
  const states = new Map<OrderId, OrderState>();
  const entries: Entry[] = [];
  let drained = 0;
  let placed = 0;

  const run = (command: OrderCommand, actor?: Staff) => {
    const state = states.get(command.orderId) ?? orderDecider.initialState;
    const decision = orderDecider.decide(command, state);
    if (isRefusal(decision)) return decision;
    const metadata = metadataOf(actor);
    let next = state;
    for (const event of decision) {
      next = orderDecider.evolve(next, { ...event, metadata: { ...metadata, occurredAt: NOW.toISOString() } } as OrderEvent);
      entries.push({ event, streamId: `order-${command.orderId}`, metadata });
    }
    states.set(command.orderId, next);
    return decision;
  };
  const must = (command: OrderCommand, actor?: Staff) => {
    const decision = run(command, actor);
    if (isRefusal(decision)) throw new Error(`refused: ${decision.message}`);
  };
  const all = (): ProjectedEvent[] => toLog(entries);

  return {
    place: (overrides = {}, index) => {
      const body = bodies[(index ?? placed++) % bodies.length];
      if (body === undefined) throw new Error("no demo body");
      // A pool smaller than the orders wanted is reused under fresh ids.
      const orderId = overrides.order_id ?? String(900_000 + states.size);
      const decoded = decodePlaceOrderRequest({ ...body, order_id: orderId, ...overrides });
      if (Result.isFailure(decoded)) throw new Error(`bad demo body: ${decoded.failure.message}`);
      must({ type: "PlaceOrder", ...decoded.success });
      return decoded.success.orderId;
    },
    run,
    must,
    assign: (orderId, by) => must({ type: "AssignOrder", orderId, assignee: { id: by.id, name: by.name }, now: NOW.toISOString() }, by),
    move: (orderId, to, by = ADMIN) =>
      must({ type: "ChangeStatus", orderId, to, actor: by, permanentDelete: false }, by),
    remove: (orderId, by = ADMIN) =>
      must({ type: "ChangeStatus", orderId, to: "Deleted", actor: by, permanentDelete: false }, by),
    eraseForever: (orderId) =>
      must({ type: "ChangeStatus", orderId, to: "Deleted", actor: ADMIN, permanentDelete: true }, ADMIN),
    backToOriginal: (orderId, by = MARIA) => must({ type: "MoveOrderToOriginalFolder", orderId, actor: by }, by),
    requestRefund: (orderId, today, by = MARIA) =>
      must(
        {
          type: "AddRemark",
          orderId,
          remark: "Customer asked for a refund",
          remarkerName: by.name,
          whatsapp: false,
          telephone: true,
          statusRefund: true,
          voided: false,
          chargeBack: false,
          reportError: false,
          today: today as never,
          actor: by,
        },
        by,
      ),
    refunded: (orderId, by = MARIA) => must({ type: "MarkOrderRefunded", orderId, actor: by }, by),
    chargeback: (orderId, by = MARIA) =>
      must(
        {
          type: "AddRemark",
          orderId,
          remark: "Bank reported a dispute",
          remarkerName: by.name,
          whatsapp: false,
          telephone: false,
          statusRefund: false,
          voided: false,
          chargeBack: true,
          reportError: false,
          today: TODAY as never,
          actor: by,
        },
        by,
      ),
    staffEvent: (event, streamId) => {
      entries.push({ event, streamId, metadata: metadataOf(ADMIN) });
    },
    log: all,
    drain: () => {
      const log = all().slice(drained);
      drained = entries.length;
      return log;
    },
    state: (orderId) => states.get(orderId) ?? orderDecider.initialState,
    orderIds: () => [...states.keys()],
  };
};
