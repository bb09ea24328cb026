import * as Result from "effect/Result";
import { decodePlaceOrderRequest, type PlaceOrderInput } from "@etd/write";
import { describe, expect, it } from "vitest";
import { generateDemoOrders, FIRST_DEMO_ORDER_ID } from "../src/demo-orders.ts";
import { seededRandom } from "../src/seeded-random.ts";

const now = new Date("2025-06-15T09:30:00.000Z");
const today = "2025-06-15";
const bodies = generateDemoOrders({ seed: 2026, count: 2000, now });

const decodeAll = (): PlaceOrderInput[] =>
  bodies.map((body) => {
    const decoded = decodePlaceOrderRequest(body);
    if (Result.isFailure(decoded)) {
      throw new Error(`order ${String(body.order_id)} does not decode: ${decoded.failure.message}`);
    }
    return decoded.success;
  });
const orders = decodeAll();

const share = (predicate: (order: PlaceOrderInput) => boolean) => orders.filter(predicate).length / orders.length;

describe("demo orders", () => {
  it("are place-order requests that all decode, like real intake", () => {
    expect(orders).toHaveLength(2000);
  });

  it("are numbered from 100001 upwards, rising with their creation time", () => {
    expect(orders.map((o) => o.orderId)).toEqual(orders.map((_, i) => String(FIRST_DEMO_ORDER_ID + i)));
    const created = orders.map((o) => o.createdAt);
    expect(created).toEqual([...created].sort());
  });

  it("were created over the 90 days before now", () => {
    const first = Date.parse(orders[0]!.createdAt);
    const last = Date.parse(orders.at(-1)!.createdAt);
    expect(first).toBeGreaterThanOrEqual(now.getTime() - 90 * 86_400_000);
    expect(first).toBeLessThan(now.getTime() - 85 * 86_400_000);
    expect(last).toBeLessThanOrEqual(now.getTime());
    expect(last).toBeGreaterThan(now.getTime() - 86_400_000);
  });

  it("can be created over a shorter span (the demo seeding's 60 days)", () => {
    const recent = generateDemoOrders({ seed: 2026, count: 200, now, spanDays: 60 }).map((body) => Date.parse(String(body.created_at)));
    expect(Math.min(...recent)).toBeGreaterThanOrEqual(now.getTime() - 60 * 86_400_000);
    expect(Math.min(...recent)).toBeLessThan(now.getTime() - 58 * 86_400_000);
    expect(Math.max(...recent)).toBeLessThanOrEqual(now.getTime());
    expect(() => generateDemoOrders({ seed: 2026, count: 1, now, spanDays: 0 })).toThrow(RangeError);
  });

  it("are the same for the same seed and now, and differ for another seed", () => {
    expect(generateDemoOrders({ seed: 2026, count: 2000, now })).toEqual(bodies);
    const other = generateDemoOrders({ seed: 2027, count: 2000, now });
    expect(other).not.toEqual(bodies);
    expect(other.map((o) => o.email)).not.toEqual(bodies.map((o) => o.email));
  });

  it("cover both sites, both processing modes, air and sea, arrival and departure", () => {
    expect(share((o) => o.landingDomain === "primary")).toBeGreaterThan(0.4);
    expect(share((o) => o.landingDomain === "secondary")).toBeGreaterThan(0.2);
    expect(share((o) => o.processingMode === "standard")).toBeGreaterThan(0.5);
    expect(share((o) => o.processingMode === "priority")).toBeGreaterThan(0.15);
    expect(share((o) => o.application.transportation_type === "air")).toBeGreaterThan(0.7);
    expect(share((o) => o.application.transportation_type === "sea")).toBeGreaterThan(0.05);
    expect(share((o) => o.application.travel_type === "arrival")).toBeGreaterThan(0.5);
    expect(share((o) => o.application.travel_type === "departure")).toBeGreaterThan(0.15);
  });

  it("include future orders spread over several months (ADMIN-3)", () => {
    const dueLater = orders.filter((o) => o.processingDate > o.createdAt.slice(0, 10));
    expect(dueLater.length / orders.length).toBeGreaterThan(0.06);
    expect(dueLater.length / orders.length).toBeLessThan(0.14);
    const future = orders.filter((o) => o.processingDate > today);
    expect(new Set(future.map((o) => o.processingDate.slice(0, 7))).size).toBeGreaterThanOrEqual(3);
    // Most orders are due the day they were made.
    expect(share((o) => o.processingDate === o.createdAt.slice(0, 10))).toBeGreaterThan(0.85);
  });

  it("declare customs goods with one to three entries per Yes (ORDER-6)", () => {
    const entries = orders.flatMap((o) => o.personal.custom_declaration_details ?? []);
    expect(entries.length).toBeGreaterThan(100);
    for (const order of orders) {
      for (const entry of order.personal.custom_declaration_details ?? []) {
        const item = entry.type.replace(/_info$/, "") as keyof typeof order.application;
        expect(order.application[item]).toBe("Yes");
        expect(entry.details.length).toBeGreaterThanOrEqual(1);
        expect(entry.details.length).toBeLessThanOrEqual(3);
        for (const detail of entry.details) {
          expect(Object.keys(detail).sort()).toEqual(
            [`${item}_amount_in_usd`, `${item}_description`, `${item}_quantity`].sort(),
          );
        }
      }
    }
  });

  it("declare customs only for arrivals by air; others answer the two currency questions", () => {
    for (const order of orders) {
      const { transportation_type, travel_type } = order.application;
      if (transportation_type === "air" && travel_type === "arrival") {
        expect(order.application.other_goods).toBeDefined();
      } else {
        expect(order.application.other_goods).toBeUndefined();
        expect(order.application.foreign_currency).toBeDefined();
      }
    }
  });

  it("include currency declarations with owner, recipient and instruments (ORDER-7)", () => {
    expect(orders.some((o) => (o.personal.instrument_information?.length ?? 0) > 0)).toBe(true);
    expect(orders.some((o) => o.personal.owner_currency_declaration_last_name !== undefined)).toBe(true);
    expect(orders.some((o) => o.personal.recipient_currency_declaration_business_name !== undefined)).toBe(true);
    for (const order of orders.filter((o) => o.personal.instrument_information !== undefined)) {
      expect([order.application.philippine_currency, order.application.foreign_currency]).toContain("Yes");
    }
  });

  it("read like real travellers: flights or ships, ports, hotels, passports and phones", () => {
    const air = orders.find((o) => o.application.transportation_type === "air")!;
    expect(air.personal.name_of_airline).toBeTruthy();
    expect(air.personal.flight_number).toMatch(/^[A-Z0-9]{2} \d{1,4}$/);
    const sea = orders.find((o) => o.application.transportation_type === "sea")!;
    expect(sea.personal.vessel_name).toBeTruthy();
    expect(sea.personal.cabin_number).toMatch(/^\d{4,5}$/);
    expect(sea.personal.seaport).toBeTruthy();
    expect(orders.some((o) => o.personal.hotel_name !== undefined)).toBe(true);
    expect(share((o) => o.personal.citizenship_id === "PH")).toBeGreaterThan(0.4);
    expect(new Set(orders.map((o) => o.personal.citizenship_id)).size).toBeGreaterThan(10);
    for (const order of orders) {
      expect(order.personal).toMatchObject({ passport_number: expect.any(String), phone_number: expect.any(String) });
      expect(order.personal.email).toMatch(/@example\.(com|org|net)$/);
    }
  });

  it("exercise intake's normalisation with the spellings sites send", () => {
    const sent = (key: string) => new Set(bodies.map((b) => (b as Record<string, unknown>)[key]));
    expect(sent("processing_mode")).toEqual(
      new Set(["Regular Processing", "Standard Processing", "standard", "Priority Processing", "priority"]),
    );
    expect(bodies.some((b) => b.processing_date === undefined)).toBe(true);
    expect(bodies.some((b) => typeof b.created_at === "string" && b.created_at.endsWith("+08:00"))).toBe(true);
    expect(bodies.some((b) => typeof b.baggage_checked_in === "string")).toBe(true);
  });

  it("generate 2,000 orders well within a second", () => {
    const started = performance.now();
    generateDemoOrders({ seed: 99, count: 2000, now });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuse a count that is not a whole number", () => {
    expect(() => generateDemoOrders({ seed: 1, count: -1, now })).toThrow(RangeError);
    expect(generateDemoOrders({ seed: 1, count: 0, now })).toEqual([]);
  });
});

describe("the seeded random source", () => {
  it("repeats its sequence for a seed and stays within its ranges", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const first = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    const random = seededRandom(7);
    const rolls = Array.from({ length: 2000 }, () => random.int(1, 6));
    expect(new Set(rolls)).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    expect(random.sample([1, 2, 3, 4], 3)).toHaveLength(3);
    expect(new Set(random.sample([1, 2, 3, 4], 4))).toEqual(new Set([1, 2, 3, 4]));
  });
});
