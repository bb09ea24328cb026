import { describe, expect, it } from "vitest";
import { internationalPhone } from "../../src/queue/queue-projection.ts";
import { QUEUE_KEYS, queueKeyOf } from "../../src/queue/queue-folders.ts";

describe("how a queue row keeps a telephone number", () => {
  it("QUEUE-13: the telephone carries its country code once", () => {
    expect(internationalPhone("9171234567", "63")).toBe("+63 9171234567");
    expect(internationalPhone("7700900123", "+44")).toBe("+44 7700900123");
    expect(internationalPhone("+639171234567", "63")).toBe("+639171234567");
    expect(internationalPhone("9171234567", null)).toBe("9171234567");
    expect(internationalPhone(null, "63")).toBeNull();
  });
});

describe("folder names (QUEUE-5)", () => {
  it("QUEUE-5: every queue key of 000 §4 names its own folder", () => {
    for (const key of QUEUE_KEYS) expect(queueKeyOf(key)).toBe(key);
  });

  it("QUEUE-5: menu labels, routes and folder names work too, in any case and spacing", () => {
    expect(queueKeyOf("Order History")).toBe("allOrder");
    expect(queueKeyOf("recent-order")).toBe("newOrder");
    expect(queueKeyOf("awaiting-response")).toBe("awaitingOrder");
    expect(queueKeyOf("Awaiting Govt")).toBe("awaitingGovtOrder");
    expect(queueKeyOf("called")).toBe("customerCalledOrder");
    expect(queueKeyOf("refund-order")).toBe("refundOrder");
    expect(queueKeyOf("Chargeback")).toBe("chargeBack");
    expect(queueKeyOf("my-order")).toBe("myOrder");
    expect(queueKeyOf("future-order")).toBe("futureOrder");
    expect(queueKeyOf("newOrders ")).toBe("newOrder");
  });

  it("QUEUE-5: anything else names no folder", () => {
    for (const name of ["", "orders", "country-order", "manage-team", "__proto__", "constructor"]) expect(queueKeyOf(name)).toBeUndefined();
  });
});
