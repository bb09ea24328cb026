import * as Result from "effect/Result";
import { decodeEvent } from "@etd/events";
import { describe, expect, it } from "vitest";
import { planLog, type PlannedWork } from "../../bench/plan-log.ts";

/*
 * The workload behind R3 and P2 (bench/plan-log.ts): what it plans is a log the write side could
 * have written, of exactly the size asked for, and the same every time for the same seed.
 */

const plan = (events: number, seed: number, extra: Partial<Parameters<typeof planLog>[0]> = {}): PlannedWork[] => [...planLog({ events, seed, ...extra })];
const eventsOf = (works: readonly PlannedWork[]) => works.flatMap((w) => w.appends.flatMap((a) => a.events.map((e) => ({ streamId: w.streamId, ...e }))));

describe("workload plan", () => {
  const works = plan(6000, 7);
  const events = eventsOf(works);

  it("holds exactly the number of events asked for, each a valid catalogue event with a unique id", () => {
    expect(events).toHaveLength(6000);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(6000);
    for (const event of events) expect(Result.isSuccess(decodeEvent(event)), `${event.type} in ${event.streamId}`).toBe(true);
    expect(plan(1, 7).flatMap((w) => w.appends)).toHaveLength(1);
    expect(plan(0, 7)).toEqual([]);
  });

  it("is the same for the same seed, and another seed gives another log", () => {
    expect(eventsOf(plan(6000, 7))).toEqual(events);
    expect(eventsOf(plan(6000, 8)).map((e) => e.eventId)).not.toEqual(events.map((e) => e.eventId));
  });

  it("opens with the team and gateways, then one stream of work per order, the order's whole history in one append at no_stream", () => {
    const setup = works.filter((w) => w.setup);
    expect(setup.map((w) => w.streamId)).toContain("gateways");
    expect(setup.filter((w) => w.streamId.startsWith("staff-")).length).toBeGreaterThan(10);
    expect(works.findIndex((w) => !w.setup)).toBe(setup.length);
    const orders = works.filter((w) => w.order);
    expect(new Set(orders.map((w) => w.streamId)).size).toBe(orders.length);
    for (const order of orders) {
      expect(order.appends[0]!.expectedVersion).toBe("no_stream");
      expect(order.appends[0]!.events[0]!.type).toBe("OrderPlaced");
    }
  });

  it("lives realistic order lives: assignments, remarks, moves, documents uploaded (their mails asked for) and downloaded, refunds, chargebacks, permanent deletes after the key is destroyed", () => {
    const types = new Set(events.map((e) => e.type));
    for (const type of ["OrderAssigned", "RemarkAdded", "OrderStatusChanged", "DocumentUploaded", "DocumentDownloaded", "OrderRefundRequested", "OrderChargebackMarked", "OrderPermanentlyDeleted"]) {
      expect(types, type).toContain(type);
    }
    const erased = works.filter((w) => w.appends.some((a) => a.forgetFirst));
    expect(erased.length).toBeGreaterThan(0);
    for (const order of erased) {
      const last = order.appends.at(-1)!;
      expect(last.forgetFirst).toBe(true);
      expect(last.events.at(-1)!.type).toBe("OrderPermanentlyDeleted");
      expect(last.events.some((e) => "personal" in e.data)).toBe(false);
    }
    expect(events.length / works.filter((w) => w.order).length).toBeGreaterThan(4);
  });

  it("a second log into the same store takes its own order numbers and leaves the team and gateways alone", () => {
    const second = plan(2000, 7, { firstOrderId: 900_001, teamAndGateways: false });
    expect(second.every((w) => w.order && w.streamId >= "order-900001")).toBe(true);
    expect(eventsOf(second)).toHaveLength(2000);
  });
});
