import type { EventStore } from "@etd/event-store";
import { ORDER_CHANGED_MESSAGE, OrderId, orderStream, StaffId } from "@etd/events";
import { postgresAvailable } from "@etd/infra/test-database";
import { describe, expect, it } from "vitest";
import {
  type ChangeStatus,
  handleCommand,
  type HandleOptions,
  orderDecider,
  type OrderCommand,
} from "../../src/index.ts";
import { customerMetadata, MARIA, PAOLO, ref, staffMetadata } from "../support/metadata.ts";
import { postgresStoreForSuite } from "../support/postgres-store.ts";
import { addRemark, placeOrder } from "../support/order-fixtures.ts";

/*
 * Issue 11, "changed since you opened it": a decisive click is sent with the version the page
 * shows. When the order's stream is at another version, nothing is decided and nothing appended;
 * the answer is "changed" with the version now. On the real PostgreSQL event store, as the
 * handler runs in production.
 */

const available = await postgresAvailable();

const withoutTime = ({ occurredAt: _, ...rest }: ReturnType<typeof staffMetadata>) => rest;

describe.skipIf(!available)("issue 11 stale clicks: handleCommand with expectedVersion", () => {
  const store = postgresStoreForSuite(4);
  let nextOrder = 400_001;

  const run = (command: OrderCommand, options: Partial<HandleOptions> = {}) =>
    handleCommand(orderDecider, command, {
      store,
      streamId: orderStream(command.orderId),
      metadata: withoutTime(staffMetadata(MARIA)),
      ...options,
    });

  /** A placed order Paolo holds: version 2. */
  const paolosOrder = async () => {
    const orderId = OrderId.make(String(nextOrder++));
    expect((await run(placeOrder({ orderId }), { metadata: withoutTime(customerMetadata()) })).ok).toBe(true);
    const assigned = await run(
      { type: "AssignOrder", orderId, assignee: ref(PAOLO), now: "2025-03-14T10:05:00.000Z" },
      { metadata: withoutTime(staffMetadata(PAOLO)) },
    );
    expect(assigned.ok).toBe(true);
    return orderId;
  };

  const moveToCompleted = (orderId: OrderId): ChangeStatus => ({
    type: "ChangeStatus",
    orderId,
    to: "Completed",
    actor: PAOLO,
    permanentDelete: false,
  });

  /**
   * The store, except that `colleague` runs right after the first read: the click has loaded the
   * stream and is deciding when someone else's change lands. Counts the reads.
   */
  const colleagueActsAfterFirstRead = (colleague: () => Promise<void>) => {
    const reads = { count: 0 };
    const interleaved = new Proxy(store, {
      get(target, property) {
        if (property === "readStream") {
          return async (...args: Parameters<EventStore["readStream"]>) => {
            const events = await target.readStream(...args);
            if (++reads.count === 1) await colleague();
            return events;
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { interleaved, reads };
  };

  /** Maria's remark with the Refund flag: two events, the order moves to Refund. */
  const mariaAsksForARefund = (orderId: OrderId) => async () => {
    expect((await run(addRemark({ orderId, statusRefund: true, actor: MARIA }))).ok).toBe(true);
  };

  const typesIn = async (orderId: OrderId) => (await store.readStream(orderStream(orderId))).map((event) => event.type);

  it("appends when the page's version is the stream's", async () => {
    const orderId = await paolosOrder();
    const outcome = await run(moveToCompleted(orderId), { expectedVersion: 2n });
    expect(outcome).toMatchObject({ ok: true, events: [{ type: "OrderStatusChanged", data: { to: "Completed" } }] });
    expect(await typesIn(orderId)).toEqual(["OrderPlaced", "OrderAssigned", "OrderStatusChanged"]);
  });

  it("refuses as changed, with the version now, when the order moved on; the stream stays as it was", async () => {
    const orderId = await paolosOrder();
    const outcome = await run(moveToCompleted(orderId), { expectedVersion: 1n });
    expect(outcome).toEqual({
      ok: false,
      refusal: { _tag: "Refused", reason: "changed", message: ORDER_CHANGED_MESSAGE, version: 2n },
    });
    expect(await typesIn(orderId)).toEqual(["OrderPlaced", "OrderAssigned"]);
  });

  it("gives the decider's refusal first: who may not act is told why, never what changed since", async () => {
    const orderId = await paolosOrder();
    // Another Team member on Paolo's order: read-only (QUEUE-12), whatever version the page sent.
    const rosa = { ...PAOLO, id: StaffId.make("5d2e10"), name: "Rosa Diaz" };
    const outcome = await run(addRemark({ orderId, statusRefund: true, actor: rosa }), { expectedVersion: 0n });
    expect(outcome).toMatchObject({ ok: false, refusal: { reason: "forbidden" } });
    // An empty remark is "Please enter your remark" at any version.
    const empty = await run(addRemark({ orderId, remark: " ", actor: PAOLO }), { expectedVersion: 1n });
    expect(empty).toMatchObject({ ok: false, refusal: { reason: "invalid", message: "Please enter your remark" } });
    expect(await typesIn(orderId)).toEqual(["OrderPlaced", "OrderAssigned"]);
  });

  it("answers changed when a colleague appends between the load and the append, never deciding on their state", async () => {
    const orderId = await paolosOrder();
    const { interleaved, reads } = colleagueActsAfterFirstRead(mariaAsksForARefund(orderId));

    const outcome = await run(moveToCompleted(orderId), { store: interleaved, expectedVersion: 2n });

    expect(outcome).toEqual({
      ok: false,
      refusal: { _tag: "Refused", reason: "changed", message: ORDER_CHANGED_MESSAGE, version: 4n },
    });
    // Loaded once before the race and once after it, and Paolo's move is nowhere.
    expect(reads.count).toBe(2);
    expect(await typesIn(orderId)).toEqual(["OrderPlaced", "OrderAssigned", "RemarkAdded", "OrderRefundRequested"]);
  });

  it("without expectedVersion, changes nothing: a lost race is decided again on the newer state", async () => {
    const orderId = await paolosOrder();
    const { interleaved, reads } = colleagueActsAfterFirstRead(mariaAsksForARefund(orderId));

    const outcome = await run(moveToCompleted(orderId), { store: interleaved });

    expect(reads.count).toBe(2);
    expect(outcome).toMatchObject({ ok: true, events: [{ type: "OrderStatusChanged", data: { from: "Refund", to: "Completed" } }] });
    expect(await typesIn(orderId)).toEqual(["OrderPlaced", "OrderAssigned", "RemarkAdded", "OrderRefundRequested", "OrderStatusChanged"]);
  });
});
