import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { postgresAvailable } from "@etd/infra/test-database";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import { physicalTable } from "../../src/engine/projection.ts";
import { countryOrders, processedBy, processedOrders, reportsProjection } from "../../src/reports/index.ts";
import { moveTo, softDelete, staffRef, timeline, upload } from "./order-timeline.ts";

/*
 * The reports keep running totals, adjusted event by event; this checks them against a count made
 * from scratch out of the orders as the write side folds them, over generated histories applied in
 * batches of any size: deletes and restores moving orders out of and back into the country counts,
 * re-uploads moving orders from one member and day to another.
 */

const COUNTRIES = [
  { citizenshipId: "PH", citizenship: "Philippines" },
  { citizenshipId: "US", citizenship: "United States" },
  { citizenshipId: "KR", citizenship: "Korea" },
  { citizenshipId: undefined, citizenship: undefined },
] as const;
const STAFF = [staffRef("s1", "Ana"), staffRef("s2", "Ben"), staffRef("s3", "Cy")] as const;

const DAY = 86_400_000;
const START = Date.parse("2025-05-01T00:00:00.000Z");
const dayAfterStart = (days: number) => new Date(START + days * DAY).toISOString().slice(0, 10);

const orderArb = fc.record({
  country: fc.nat(COUNTRIES.length - 1),
  priority: fc.boolean(),
  /** Minutes after the start; orders are placed in this order. */
  minute: fc.nat(70 * 24 * 60),
  dueAfterDays: fc.oneof(fc.constant(0), fc.nat(40)),
});
const actionArb = fc.record({
  order: fc.nat(39),
  kind: fc.constantFrom("upload", "delete", "restore"),
  staff: fc.nat(STAFF.length - 1),
  minutesLater: fc.nat(40 * 24 * 60),
});

const scenarioArb = fc.record({
  orders: fc.array(orderArb, { minLength: 1, maxLength: 40 }),
  actions: fc.array(actionArb, { maxLength: 80 }),
  batchSize: fc.integer({ min: 1, max: 60 }),
  range: fc.tuple(fc.option(fc.nat(120), { nil: undefined }), fc.option(fc.nat(120), { nil: undefined })),
  today: fc.nat(120),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

const build = (scenario: Scenario) => {
  const t = timeline();
  const placed = [...scenario.orders].sort((a, b) => a.minute - b.minute);
  const citizenship = new Map<string, (typeof COUNTRIES)[number]>();
  placed.forEach((order, i) => {
    const orderId = String(200_001 + i);
    const createdAt = new Date(START + order.minute * 60_000).toISOString();
    const country = COUNTRIES[order.country]!;
    citizenship.set(orderId, country);
    t.place({
      orderId,
      createdAt,
      mode: order.priority ? "priority" : "standard",
      processingDate: new Date(Date.parse(createdAt) + order.dueAfterDays * DAY).toISOString().slice(0, 10),
      ...country,
    });
  });
  const lastPlaced = START + Math.max(...placed.map((o) => o.minute)) * 60_000;
  const actions = scenario.actions
    .filter((a) => a.order < placed.length)
    .map((a) => ({ ...a, at: lastPlaced + a.minutesLater * 60_000 }))
    .sort((a, b) => a.at - b.at);
  for (const action of actions) {
    const orderId = String(200_001 + action.order);
    const at = new Date(action.at).toISOString();
    if (action.kind === "upload") t.attempt(upload(orderId, STAFF[action.staff]!), at);
    else if (action.kind === "delete") t.attempt(softDelete(orderId), at);
    else t.attempt(moveTo(orderId, "Awaiting"), at);
  }
  return { t, citizenship };
};

describe.skipIf(!(await postgresAvailable()))("reports agree with the orders", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await openHarness([reportsProjection]);
  });
  afterAll(async () => harness?.close());

  it("ADMIN-4 ADMIN-5 ADMIN-7: running totals equal a count from scratch, for any history, range and batch size", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const tables = reportsProjection.tables.map((base) => physicalTable(reportsProjection, base)).join(", ");
        await harness.driver.query(`truncate ${tables}`);
        const { t, citizenship } = build(scenario);
        await harness.apply(t.log(), scenario.batchSize);

        const [from, to] = scenario.range.map((d) => (d === undefined ? "" : dayAfterStart(d)));
        const today = dayAfterStart(scenario.today);
        const inRange = (day: string) => (!from || day >= from) && (!to || day <= to);

        const expectedCountries = new Map<string, { count: number; standard: number; priority: number; future: number }>();
        const expectedProcessed = new Map<string, number>();
        for (const [orderId, order] of t.orders()) {
          if (!order.exists) continue;
          if (order.status !== "Deleted" && inRange(order.createdAt.slice(0, 10))) {
            const key = citizenship.get(orderId)?.citizenshipId ?? "";
            const row = expectedCountries.get(key) ?? { count: 0, standard: 0, priority: 0, future: 0 };
            row.count += 1;
            if (order.processingMode === "standard") row.standard += 1;
            else row.priority += 1;
            if (order.processingDate > today) row.future += 1;
            expectedCountries.set(key, row);
          }
          if (order.document && inRange(order.document.uploadedAt.slice(0, 10))) {
            const id = order.document.processedBy.id;
            expectedProcessed.set(id, (expectedProcessed.get(id) ?? 0) + 1);
          }
        }

        const countries = await countryOrders(harness.driver.query, { fromDate: from, toDate: to, today });
        expect(
          Object.fromEntries(
            countries.map((r) => [r.citizenship_id, { count: r.count, standard: r.standard_count, priority: r.priority_count, future: r.future_count }]),
          ),
        ).toEqual(Object.fromEntries(expectedCountries));
        const counts = countries.map((r) => r.count);
        expect(counts).toEqual([...counts].sort((a, b) => b - a));

        const processed = await processedBy(harness.driver.query, { fromDate: from, toDate: to });
        expect(Object.fromEntries(processed.map((r) => [r.processed_by_id, r.count]))).toEqual(Object.fromEntries(expectedProcessed));

        const list = await processedOrders(harness.driver.query, { page: 1, limit: 500, fromDate: from, toDate: to });
        const total = [...expectedProcessed.values()].reduce((a, b) => a + b, 0);
        expect(list.total).toBe(total);
        expect(list.rows).toHaveLength(total);
        for (const row of list.rows) {
          const order = t.orders().get(row.order_id);
          expect(order?.exists && order.document?.processedBy.id).toBe(row.processed_by_id);
        }
      }),
      { numRuns: 25 },
    );
  });
});
