import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable } from "@etd/infra/test-database";
import { isErased, type OrderId, type StaffId } from "@etd/events";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import { countryOrders, processedBy, processedOrders, reportsProjection } from "../../src/reports/index.ts";
import { moveTo, permanentlyDelete, softDelete, staffRef, timeline, upload } from "./order-timeline.ts";

const maria = staffRef("staff-maria", "Maria Santos");
const jose = staffRef("staff-jose", "Jose Cruz");

/**
 * A month of orders from three countries and one without a citizenship, processed by two
 * members; the expectations below are worked out by hand from this list.
 */
const march = () => {
  const t = timeline();
  t.staff({ type: "AddStaffMember", staffId: maria.id, name: maria.name, email: "maria@example.com", role: "Team", actor: { system: "test" } }, "2025-02-01T09:00:00.000Z");
  t.staff({ type: "AddStaffMember", staffId: jose.id, name: jose.name, email: "jose@example.com", role: "Team", actor: { system: "test" } }, "2025-02-01T09:01:00.000Z");
  const ph = { citizenshipId: "PH", citizenship: "Philippines" };
  const us = { citizenshipId: "US", citizenship: "United States" };
  t.place({ orderId: "100001", createdAt: "2025-03-01T10:00:00.000Z", ...ph });
  t.place({ orderId: "100002", createdAt: "2025-03-02T23:59:59.000Z", mode: "priority", ...ph });
  t.place({ orderId: "100003", createdAt: "2025-03-03T00:00:00.000Z", processingDate: "2025-04-10", ...us });
  t.place({ orderId: "100004", createdAt: "2025-03-05T12:00:00.000Z", mode: "priority", processingDate: "2025-03-20", ...us });
  t.place({ orderId: "100005", createdAt: "2025-03-05T13:00:00.000Z", citizenshipId: "JP", citizenship: "Japan" });
  t.place({ orderId: "100006", createdAt: "2025-03-06T08:00:00.000Z" });
  t.order(softDelete("100005"), "2025-03-05T14:00:00.000Z");
  // 100001: Maria uploads first, Jose replaces the document two days later: Jose processed it.
  t.order(upload("100001", maria), "2025-03-02T10:00:00.000Z");
  t.order(upload("100001", jose), "2025-03-04T10:00:00.000Z");
  t.order(upload("100002", maria), "2025-03-03T11:00:00.000Z");
  t.order(upload("100004", maria), "2025-03-05T23:59:59.000Z");
  // Deleted after processing: still work Jose did.
  t.order(upload("100006", jose), "2025-03-06T09:00:00.000Z");
  t.order(softDelete("100006"), "2025-03-06T10:00:00.000Z");
  return t;
};

describe.skipIf(!(await postgresAvailable()))("reports projection", () => {
  let harness: Harness;
  const query = () => harness.driver.query;

  beforeAll(async () => {
    harness = await openHarness([reportsProjection]);
    await harness.apply(march().log());
  });
  afterAll(async () => harness?.close());

  describe("ADMIN-4 country orders", () => {
    it("counts the orders created in the range per country, both days included, deleted orders left out", async () => {
      const rows = await countryOrders(query(), { fromDate: "2025-03-02", toDate: "2025-03-05", today: "2025-03-10" });
      expect(rows).toEqual([
        { citizenship_id: "US", citizenship: "United States", count: 2, standard_count: 1, priority_count: 1, future_count: 2 },
        { citizenship_id: "PH", citizenship: "Philippines", count: 1, standard_count: 0, priority_count: 1, future_count: 0 },
      ]);
    });

    it("with both dates empty counts every order, most orders first, ties by country name", async () => {
      const rows = await countryOrders(query(), { fromDate: "", toDate: "", today: "2025-03-10" });
      expect(rows.map((r) => [r.citizenship, r.count, r.standard_count, r.priority_count])).toEqual([
        ["Philippines", 2, 1, 1],
        ["United States", 2, 1, 1],
      ]);
    });

    it("with one date empty leaves that side of the range open", async () => {
      const from = await countryOrders(query(), { fromDate: "2025-03-03", toDate: undefined, today: "2025-03-10" });
      expect(from.map((r) => [r.citizenship_id, r.count])).toEqual([["US", 2]]);
      const to = await countryOrders(query(), { fromDate: undefined, toDate: "2025-03-01", today: "2025-03-10" });
      expect(to.map((r) => [r.citizenship_id, r.count])).toEqual([["PH", 1]]);
    });

    it("counts as future the orders due after `today`, so the column changes as days pass, not as events arrive", async () => {
      const futureOn = async (today: string) =>
        (await countryOrders(query(), { fromDate: "", toDate: "", today })).find((r) => r.citizenship_id === "US")?.future_count;
      expect(await futureOn("2025-03-05")).toBe(2);
      expect(await futureOn("2025-03-19")).toBe(2);
      expect(await futureOn("2025-03-20")).toBe(1); // due today: no longer a future order
      expect(await futureOn("2025-04-09")).toBe(1);
      expect(await futureOn("2025-04-10")).toBe(0);
    });

    it("gives an empty list for a range with no orders", async () => {
      expect(await countryOrders(query(), { fromDate: "2024-01-01", toDate: "2024-12-31", today: "2025-03-10" })).toEqual([]);
    });
  });

  describe("ADMIN-5 processed by", () => {
    it("credits each order to the member who uploaded its document last, on the day of that upload", async () => {
      expect(await processedBy(query(), { fromDate: "", toDate: "" })).toEqual([
        { processed_by_id: "staff-jose", processed_by: "Jose Cruz", count: 2 },
        { processed_by_id: "staff-maria", processed_by: "Maria Santos", count: 2 },
      ]);
      // Maria's first upload of 100001 on 2 March no longer counts: Jose replaced it on the 4th.
      expect(await processedBy(query(), { fromDate: "2025-03-02", toDate: "2025-03-02" })).toEqual([]);
      expect(await processedBy(query(), { fromDate: "2025-03-04", toDate: "2025-03-04" })).toEqual([
        { processed_by_id: "staff-jose", processed_by: "Jose Cruz", count: 1 },
      ]);
    });

    it("includes both days of the range, to the last second of the last day", async () => {
      expect(await processedBy(query(), { fromDate: "2025-03-03", toDate: "2025-03-05" })).toEqual([
        { processed_by_id: "staff-maria", processed_by: "Maria Santos", count: 2 },
        { processed_by_id: "staff-jose", processed_by: "Jose Cruz", count: 1 },
      ]);
    });
  });

  describe("ADMIN-7 order processed list", () => {
    it("lists orders with a document, the latest upload first, with who processed them and when", async () => {
      const page = await processedOrders(query(), { page: 1, limit: 10 });
      expect(page.total).toBe(4);
      expect(page.rows.map((r) => [r.order_id, r.processed_by, r.processed_at, r.status])).toEqual([
        ["100006", "Jose Cruz", "2025-03-06T09:00:00.000Z", "Deleted"],
        ["100004", "Maria Santos", "2025-03-05T23:59:59.000Z", "Priority"],
        ["100001", "Jose Cruz", "2025-03-04T10:00:00.000Z", "New"],
        ["100002", "Maria Santos", "2025-03-03T11:00:00.000Z", "Priority"],
      ]);
      expect(page.rows[2]).toEqual({
        order_id: "100001",
        processed_by_id: "staff-jose",
        processed_by: "Jose Cruz",
        processed_at: "2025-03-04T10:00:00.000Z",
        status: "New",
        processing_mode: "standard",
        processing_date: "2025-03-01",
        citizenship: "Philippines",
        created_at: "2025-03-01T10:00:00.000Z",
      });
    });

    it("pages with the total of the whole list", async () => {
      const second = await processedOrders(query(), { page: 2, limit: 3 });
      expect(second.total).toBe(4);
      expect(second.rows.map((r) => r.order_id)).toEqual(["100002"]);
    });

    it("gives every row on one page for All", async () => {
      const all = await processedOrders(query(), { page: 3, limit: "All" });
      expect(all).toMatchObject({ total: 4, page: 1, limit: "All" });
      expect(all.rows).toHaveLength(4);
    });

    it("filters on the day of the last upload, both days included", async () => {
      const page = await processedOrders(query(), { page: 1, limit: 10, fromDate: "2025-03-04", toDate: "2025-03-05" });
      expect(page.total).toBe(2);
      expect(page.rows.map((r) => r.order_id)).toEqual(["100004", "100001"]);
    });
  });
});

describe.skipIf(!(await postgresAvailable()))("reports projection over time", () => {
  it("ADMIN-4 ADMIN-5: gives the same reports whatever the batch sizes", async () => {
    const log = march().log();
    const whole = await openHarness([reportsProjection]);
    const oneByOne = await openHarness([reportsProjection]);
    try {
      await whole.apply(log, 1000);
      await oneByOne.apply(log, 1);
      for (const range of [{ fromDate: "", toDate: "" }, { fromDate: "2025-03-02", toDate: "2025-03-05" }]) {
        expect(await countryOrders(oneByOne.driver.query, { ...range, today: "2025-03-10" })).toEqual(
          await countryOrders(whole.driver.query, { ...range, today: "2025-03-10" }),
        );
        expect(await processedBy(oneByOne.driver.query, range)).toEqual(await processedBy(whole.driver.query, range));
      }
    } finally {
      await whole.close();
      await oneByOne.close();
    }
  });

  it("ADMIN-4: a restored order counts again; ADMIN-5: a renamed member is shown by the new name", async () => {
    const t = march();
    t.order(moveTo("100005", "Awaiting"), "2025-03-07T09:00:00.000Z");
    t.staff({ type: "UpdateStaffMember", staffId: jose.id, name: "Jose P. Cruz", email: "jose@example.com", role: "Manager", actor: { system: "test" }, team: { admins: 1 } }, "2025-03-08T09:00:00.000Z");
    const harness = await openHarness([reportsProjection]);
    try {
      await harness.apply(t.log(), 7);
      const rows = await countryOrders(harness.driver.query, { fromDate: "", toDate: "", today: "2025-03-10" });
      expect(rows.find((r) => r.citizenship_id === "JP")).toMatchObject({ citizenship: "Japan", count: 1, standard_count: 1 });
      expect((await processedBy(harness.driver.query, {})).map((r) => r.processed_by)).toContain("Jose P. Cruz");
      expect((await processedOrders(harness.driver.query, { page: 1, limit: 1 })).rows[0]?.processed_by).toBe("Jose P. Cruz");
    } finally {
      await harness.close();
    }
  });

  it("keeps no personal data, so a permanent delete leaves nothing of the traveller in its tables", async () => {
    const t = march();
    t.order(upload("100003", maria), "2025-03-07T09:00:00.000Z");
    t.order(permanentlyDelete("100003"), "2025-03-08T09:00:00.000Z");
    const log = t.log();
    const placed = log.find((e) => e.event.type === "OrderPlaced" && e.event.data.orderId === ("100003" as OrderId))!;
    const personal = placed.event.type === "OrderPlaced" ? placed.event.data.personal : undefined;
    const harness = await openHarness([reportsProjection]);
    try {
      await harness.apply(log);
      const dump = JSON.stringify(
        await Promise.all(reportsProjection.tables.map((table) => harness.driver.query(`select * from ${table}`))),
      );
      // A country other orders' customers give too is theirs, and stays in the country's name.
      const othersCountries = new Set(
        log.flatMap((e) => (e.event.type === "OrderPlaced" && e !== placed && !isErased(e.event.data.personal) ? [e.event.data.personal.citizenship, e.event.data.personal.citizenshipCountry] : [])),
      );
      const values = Object.values(personal ?? {}).filter((v): v is string => typeof v === "string" && v.length > 3 && !othersCountries.has(v));
      expect(values.length).toBeGreaterThan(3);
      for (const value of values) expect(dump).not.toContain(value);
      // The order stays processed (Maria did the work) and leaves the country counts.
      const processed = await processedOrders(harness.driver.query, { page: 1, limit: 1 });
      expect(processed.rows[0]).toMatchObject({ order_id: "100003", status: "Deleted", processed_by_id: "staff-maria" as StaffId });
      // Issue 25: its own row keeps no country (the customer typed it).
      expect(await harness.driver.query("select citizenship_id, citizenship, country_key from report_orders where order_id = '100003'")).toEqual([{ citizenship_id: null, citizenship: null, country_key: "" }]);
      const us = (await countryOrders(harness.driver.query, { today: "2025-03-10" })).find((r) => r.citizenship_id === "US");
      expect(us?.count).toBe(1);
    } finally {
      await harness.close();
    }
  });
});
