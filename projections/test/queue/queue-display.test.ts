import { describe, expect, it } from "vitest";
import { formatDateTime, formatDay, formatProcessMonth, fullName, internationalPhone, listDateStyle, refundDateStyle } from "../../src/queue/queue-display.ts";
import { QUEUE_KEYS, queueKeyOf } from "../../src/queue/queue-folders.ts";

describe("how the lists write values (QUEUE-6)", () => {
  it("QUEUE-6: dates and times are DD/MM/YYYY HH:mm:ss on most lists, in UTC", () => {
    expect(formatDateTime("2025-03-14T09:26:53.589Z", listDateStyle("newOrder"))).toBe("14/03/2025 09:26:53");
    expect(formatDateTime("2025-03-14T23:59:59Z", listDateStyle("allOrder"))).toBe("14/03/2025 23:59:59");
  });

  it("QUEUE-6: MM-DD-YYYY on the priority list", () => {
    expect(formatDateTime("2025-03-14T09:26:53Z", listDateStyle("priorityOrder"))).toBe("03-14-2025 09:26:53");
    expect(formatDay("2025-03-21", listDateStyle("priorityOrder"))).toBe("03-21-2025");
  });

  it("QUEUE-6: the refund list writes its refund date DD-MM-YYYY; other lists keep their own style", () => {
    expect(formatDay("2025-03-13", refundDateStyle("refundOrder"))).toBe("13-03-2025");
    expect(formatDay("2025-03-13", refundDateStyle("allOrder"))).toBe("13/03/2025");
  });

  it("dates a customer typed in another form are shown as typed; missing ones stay missing", () => {
    expect(formatDay("March 20", "DD/MM/YYYY")).toBe("March 20");
    expect(formatDay(null, "DD/MM/YYYY")).toBeNull();
  });

  it("ADMIN-3: a process month reads as the month's name and year", () => {
    expect(formatProcessMonth("2025-04")).toBe("April 2025");
    expect(formatProcessMonth("2026-12")).toBe("December 2026");
  });

  it("QUEUE-3: the Name column joins first, middle and last names, skipping the missing ones", () => {
    expect(fullName("Juan", "Dela", "Cruz")).toBe("Juan Dela Cruz");
    expect(fullName("Ana", null, "Reyes")).toBe("Ana Reyes");
    expect(fullName(null, null, null)).toBe("");
  });

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
