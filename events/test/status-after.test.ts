import { describe, expect, it } from "vitest";
import * as Result from "effect/Result";
import { SAMPLES } from "./samples.ts";
import { decodeEvent, definitionOf, isOrderEvent, statusAfter } from "../src/index.ts";

/*
 * Issue 10 item 4: one place says which status an event leads to. Written here from DESIGN §4,
 * apart from the function: assigning makes an order Pending, a refund request Refund, a refund paid
 * back Completed Refund, a chargeback ChargeBack, a permanent delete Deleted; a move names its status;
 * everything else (remarks, mail, uploads, packs, downloads) leaves the status alone.
 */
describe("statusAfter: the status each order event leads to", () => {
  it("for every sample of every order event type", () => {
    const expected: Record<string, string | undefined> = {
      OrderAssigned: "Pending",
      OrderRefundRequested: "Refund",
      OrderRefunded: "CompletedRefund",
      OrderChargebackMarked: "ChargeBack",
      OrderPermanentlyDeleted: "Deleted",
    };
    const events = Object.values(SAMPLES)
      .map((sample) => Result.getOrThrow(decodeEvent({ ...sample, schemaVersion: definitionOf(sample.type)!.version })))
      .filter(isOrderEvent);
    expect(events.length).toBeGreaterThan(10);
    const placed = events.find((e) => e.type === "OrderPlaced")!;
    const priority = { ...placed, data: { ...placed.data, processingMode: "priority" } } as typeof placed;
    for (const event of [...events, priority]) {
      const want =
        event.type === "OrderPlaced"
          ? event.data.processingMode === "priority" ? "Priority" : "New"
          : event.type === "OrderStatusChanged" || event.type === "OrderMovedToOriginalFolder"
            ? event.data.to
            : expected[event.type];
      expect(statusAfter(event), event.type).toBe(want);
    }
  });
});
