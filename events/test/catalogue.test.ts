import { describe, expect, it } from "vitest";
import {
  CATALOGUE,
  GATEWAY_EVENTS,
  GATEWAYS_STREAM,
  ORDER_EVENTS,
  OrderId,
  STAFF_EVENTS,
  StaffId,
  definitionOf,
  orderStream,
  parseStreamName,
  staffStream,
} from "../src/index.ts";

describe("the catalogue", () => {
  it("names each event type once, across all stream categories", () => {
    const types = CATALOGUE.map((d) => d.type);
    expect(new Set(types).size).toBe(types.length);
    expect(ORDER_EVENTS.length + STAFF_EVENTS.length + GATEWAY_EVENTS.length).toBe(types.length);
  });

  it("gives every type a current version of 1 or more", () => {
    for (const definition of CATALOGUE) {
      expect(Number.isInteger(definition.version) && definition.version >= 1).toBe(true);
    }
    expect(definitionOf("RemarkAdded")?.version).toBe(2);
  });

  it("knows nothing of a type it does not list", () => {
    expect(definitionOf("OrderShipped")).toBeUndefined();
  });
});

describe("stream names (DESIGN §3)", () => {
  const orderId = OrderId.make("100234");
  const staffId = StaffId.make("7f3c2a");

  it("are order-{orderId}, staff-{id} and gateways", () => {
    expect(orderStream(orderId)).toBe("order-100234");
    expect(staffStream(staffId)).toBe("staff-7f3c2a");
    expect(GATEWAYS_STREAM).toBe("gateways");
  });

  it("read back into what they are about", () => {
    expect(parseStreamName("order-100234")).toEqual({ category: "order", orderId: "100234" });
    expect(parseStreamName("staff-7f3c2a")).toEqual({ category: "staff", staffId: "7f3c2a" });
    expect(parseStreamName("gateways")).toEqual({ category: "gateways" });
    expect(parseStreamName("order-12")).toBeUndefined();
    expect(parseStreamName("invoice-100234")).toBeUndefined();
  });
});
