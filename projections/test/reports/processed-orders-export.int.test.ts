import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable } from "@etd/infra/test-database";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import { countProcessedOrderExport, processedOrderExportBatches, processedOrders, reportsProjection, type ProcessedOrderRow } from "../../src/reports/index.ts";
import { staffRef, timeline, upload } from "./order-timeline.ts";

const maria = staffRef("staff-maria", "Maria Santos");

/**
 * Seven orders, six processed: three uploads at one instant (the tie the order id breaks), the
 * others on days either side of a range; order 200007 has no document and is never exported.
 */
const history = () => {
  const t = timeline();
  t.staff({ type: "AddStaffMember", staffId: maria.id, name: maria.name, email: "maria@example.com", role: "Team", actor: { system: "test" } }, "2025-02-01T09:00:00.000Z");
  for (let i = 1; i <= 7; i++) t.place({ orderId: `20000${i}`, createdAt: `2025-03-01T0${i}:00:00.000Z`, citizenshipId: "PH", citizenship: "Philippines" });
  t.order(upload("200001", maria), "2025-03-02T10:00:00.000Z");
  for (const id of ["200004", "200002", "200006"]) t.order(upload(id, maria), "2025-03-03T12:00:00.000Z");
  t.order(upload("200003", maria), "2025-03-04T23:59:59.999Z");
  t.order(upload("200005", maria), "2025-03-05T00:00:00.000Z");
  return t;
};

const collect = async (batches: AsyncIterable<readonly ProcessedOrderRow[]>) => {
  const rows: ProcessedOrderRow[] = [];
  const sizes: number[] = [];
  for await (const batch of batches) {
    rows.push(...batch);
    sizes.push(batch.length);
  }
  return { rows, sizes };
};

/* Issue 16 D, ADMIN-7: the Order Processed export's keyset batches hold exactly the list, in its order. */
describe.skipIf(!(await postgresAvailable()))("ADMIN-7 Order Processed export batches (issue 16 D)", () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await openHarness([reportsProjection]);
    await harness.apply(history().log());
  });
  afterAll(async () => harness?.close());

  it("issue 16 D ADMIN-7: batches of any size give the list's rows once each, latest upload first, ties by order id", async () => {
    const list = await processedOrders(harness.driver.query, { page: 1, limit: "All" });
    expect(list.rows.map((row) => row.order_id)).toEqual(["200005", "200003", "200006", "200004", "200002", "200001"]);
    for (const batchSize of [1, 2, 4, 6, 1000]) {
      const { rows, sizes } = await collect(processedOrderExportBatches(harness.driver.query, { batchSize }));
      expect(rows, `batches of ${batchSize}`).toEqual(list.rows);
      expect(sizes.every((size) => size <= batchSize)).toBe(true);
    }
    expect(await countProcessedOrderExport(harness.driver.query, {})).toBe(6);
  });

  it("issue 16 D ADMIN-7: a day range keeps the uploads within its days, both included, as the list does", async () => {
    const range = { fromDate: "2025-03-03", toDate: "2025-03-04" };
    const { rows } = await collect(processedOrderExportBatches(harness.driver.query, { ...range, batchSize: 2 }));
    expect(rows.map((row) => row.order_id)).toEqual(["200003", "200006", "200004", "200002"]);
    expect(rows).toEqual((await processedOrders(harness.driver.query, { ...range, page: 1, limit: "All" })).rows);
    expect(await countProcessedOrderExport(harness.driver.query, range)).toBe(4);
    expect(await countProcessedOrderExport(harness.driver.query, { fromDate: "2025-03-06", toDate: "" })).toBe(0);
  });
});
