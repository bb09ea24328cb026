import { postgresAvailable } from "@etd/infra/test-database";
import type { OrderId } from "@etd/events";
import type { PlaceOrderRequestBody } from "@etd/write";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { physicalTable } from "../../src/engine/projection.ts";
import { openHarness, type Harness } from "../support/projection-harness.ts";
import {
  folderCounts,
  futureMonths,
  ordersList,
  QUEUE_TABLES,
  queueProjection,
  searchOrders,
  type QueueKey,
} from "../../src/queue/index.ts";
import { createScenario, MARIA, TODAY } from "./queue-scenario.ts";

const available = await postgresAvailable();
const viewer = { today: TODAY, staffId: MARIA.id };

const at = (day: string, n: number) => `${day}T09:${String(n).padStart(2, "0")}:07Z`;

describe.skipIf(!available)("queue lists, search and the future-orders calendar (QUEUE-2..7, ADMIN-3)", () => {
  let harness: Harness;
  const scenario = createScenario({ seed: 5 });
  const ids: Record<string, OrderId> = {};
  const newOrders: OrderId[] = [];

  const list = (queueKey: QueueKey, page = 1, limit: number | "All" = 10, processMonth?: string) =>
    ordersList(harness.driver.query, { queueKey, page, limit, ...viewer, ...(processMonth ? { processMonth } : {}) });
  const search = (folderName: QueueKey, searchVal: string, start = 0, end: number | "All" = 10) =>
    searchOrders(harness.driver.query, { folderName, searchVal, start, end, ...viewer });

  beforeAll(async () => {
    harness = await openHarness([queueProjection]);
    const standard = { processing_mode: "standard" } as const;
    /** A standard order placed and processed on `day` by a traveller the tests search for (the e-mail typed twice). */
    const placeNamed = (day: string, n: number, traveller: Partial<PlaceOrderRequestBody> & { readonly email: string }) =>
      scenario.place({ ...standard, created_at: at(day, n), processing_date: day, ...traveller, confirm_email: traveller.email });
    ids.juan = placeNamed("2025-03-10", 5, {
      first_name: "Juan",
      middle_name: "Dela",
      last_name: "Cruz",
      email: "Juan.Cruz@Example.com",
      phone_number: "9171234567",
      country_phone_code: "63",
      date_of_travel: "2025-03-20",
      date_of_departure: "2025-03-19",
    });
    newOrders.push(ids.juan);
    ids.maria = placeNamed("2025-03-10", 6, {
      first_name: "María",
      last_name: "O'Brien",
      email: "mob@example.org",
      phone_number: "7700900123",
      country_phone_code: "+44",
    });
    newOrders.push(ids.maria);
    ids.percent = placeNamed("2025-03-10", 7, { first_name: "Pat", last_name: "Sure", email: "100%_sure@example.net" });
    newOrders.push(ids.percent);
    for (let i = 0; i < 20; i++) {
      newOrders.push(scenario.place({ ...standard, created_at: at("2025-03-11", 10 + i), processing_date: "2025-03-11" }));
    }

    ids.priority = scenario.place({
      processing_mode: "priority",
      created_at: at("2025-03-12", 1),
      processing_date: "2025-03-12",
      date_of_travel: "2025-03-21",
      date_of_departure: "2025-03-21",
    });

    ids.refund = scenario.place({ ...standard, created_at: at("2025-03-09", 1), processing_date: "2025-03-09" });
    scenario.assign(ids.refund, MARIA);
    scenario.requestRefund(ids.refund, "2025-03-13");

    ids.awaiting = scenario.place({ ...standard, created_at: at("2025-03-08", 1), processing_date: "2025-03-08" });
    scenario.assign(ids.awaiting, MARIA);
    scenario.move(ids.awaiting, "Awaiting", MARIA);

    ids.april1 = scenario.place({ ...standard, created_at: at("2025-03-13", 1), processing_date: "2025-04-03" });
    ids.april2 = scenario.place({ processing_mode: "priority", created_at: at("2025-03-13", 2), processing_date: "2025-04-28" });
    ids.may = scenario.place({ ...standard, created_at: at("2025-03-13", 3), processing_date: "2025-05-15" });
    ids.nextJanuary = scenario.place({ ...standard, created_at: at("2025-03-13", 4), processing_date: "2026-01-07" });

    ids.erased = placeNamed("2025-03-07", 1, {
      first_name: "Zebedee",
      last_name: "Quux",
      email: "zebedee.quux@example.com",
      phone_number: "9998887777",
      country_phone_code: "63",
    });
    scenario.eraseForever(ids.erased);

    await harness.apply(scenario.log(), 10);
  });
  afterAll(async () => harness?.close());

  describe("paging (QUEUE-2, QUEUE-5, QUEUE-7)", () => {
    it("QUEUE-2: page 1 holds the ten newest orders, newest first, with the folder's total from its count", async () => {
      const newest = [...newOrders].reverse();
      const page = await list("newOrder");
      expect(page.rows.map((row) => row.order_id)).toEqual(newest.slice(0, 10));
      expect(page.total).toBe(23);
      expect(page.total).toBe((await folderCounts(harness.driver.query, viewer)).newOrdersCount);
      expect((await list("newOrder", 2)).rows.map((row) => row.order_id)).toEqual(newest.slice(10, 20));
      expect((await list("newOrder", 3)).rows.map((row) => row.order_id)).toEqual(newest.slice(20));
    });

    it("QUEUE-2: rows per page of 25, 50, 100, 500 and All each hold up to that many", async () => {
      for (const limit of [25, 50, 100, 500] as const) expect((await list("newOrder", 1, limit)).rows).toHaveLength(23);
      expect((await list("newOrder", 1, 5)).rows).toHaveLength(5);
      const all = await list("newOrder", 7, "All");
      expect(all.rows).toHaveLength(23);
      expect(all.page).toBe(1);
      expect(all.limit).toBe("All");
    });

    it("QUEUE-4: a page after the last is empty, and the total still tells the client how many there are", async () => {
      const page = await list("newOrder", 9);
      expect(page.rows).toEqual([]);
      expect(page.total).toBe(23);
      expect((await list("chargeBack")).rows).toEqual([]);
    });
  });

  describe("what a row shows (000 §3, QUEUE-3, QUEUE-6)", () => {
    it("QUEUE-3: a row has the spec's list-item fields and the list's display values", async () => {
      const row = (await list("newOrder", 1, "All")).rows.find((r) => r.order_id === ids.juan);
      expect(row).toMatchObject({
        order_id: ids.juan,
        process_status: "New",
        first_name: "Juan",
        middle_name: "Dela",
        last_name: "Cruz",
        email: "Juan.Cruz@Example.com",
        phone_number: "+63 9171234567",
        created_at: "2025-03-10T09:05:07.000Z",
        date_of_departure: "2025-03-19",
        date_of_travel: "2025-03-20",
        refund_date: null,
        processing_date: "2025-03-10",
        process_month: "2025-03",
        assign_to: "",
        assign_to_id: null,
        processing_mode: "standard",
        id: ids.juan,
        name: "Juan Dela Cruz",
        telephone: "+63 9171234567",
        status: "New",
        date: "10/03/2025 09:05:07",
        arrivalDate: "20/03/2025",
        departureDate: "19/03/2025",
        processingDate: "10/03/2025",
        processMonth: "March 2025",
      });
    });

    it("QUEUE-6: the Priority list writes dates MM-DD-YYYY", async () => {
      const [row] = (await list("priorityOrder")).rows;
      expect(row).toMatchObject({ order_id: ids.priority, date: "03-12-2025 09:01:07", arrivalDate: "03-21-2025", departureDate: "03-21-2025", processingDate: "12/03/2025" });
    });

    it("QUEUE-6: the Refund list writes the refund date DD-MM-YYYY", async () => {
      const [row] = (await list("refundOrder")).rows;
      expect(row).toMatchObject({
        order_id: ids.refund,
        refund_date: "2025-03-13",
        refundDate: "13-03-2025",
        date: "09/03/2025 09:01:07",
        status: "Refund",
        assign_to: MARIA.name,
        assign_to_id: MARIA.id,
      });
    });

    it("QUEUE-3: the status shows as staff read it, the same words as the write side's messages", async () => {
      const [row] = (await list("awaitingOrder")).rows;
      expect(row).toMatchObject({ process_status: "Awaiting", status: "Awaiting Customer" });
    });

    it("QUEUE-13: the phone number carries its country code even when the customer typed a '+'", async () => {
      const row = (await list("newOrder", 1, "All")).rows.find((r) => r.order_id === ids.maria);
      expect(row?.phone_number).toBe("+44 7700900123");
    });
  });

  describe("search (QUEUE-2, QUEUE-5, 000 §7 search-order)", () => {
    const found = async (folder: QueueKey, term: string) => (await search(folder, term, 0, "All")).rows.map((row) => row.order_id);

    it("QUEUE-5: finds an order by any part of its id, names, e-mail or phone, whatever the case", async () => {
      for (const term of [ids.juan!, ids.juan!.slice(2), "JUAN", "dela", "cRuZ", "juan dela cruz", "juan.cruz@example.COM", "EXAMPLE.com", "9171234567", "1234", "+63 917", "639171234567"]) {
        expect({ term, found: await found("newOrder", term) }).toMatchObject({ term, found: expect.arrayContaining([ids.juan]) });
      }
      expect(await found("newOrder", "o'brien")).toEqual([ids.maria]);
      expect(await found("newOrder", "MARÍA")).toEqual([ids.maria]);
    });

    it("QUEUE-5: searches only within the folder asked for", async () => {
      expect(await found("priorityOrder", "juan")).toEqual([]);
      expect(await found("allOrder", "juan dela")).toEqual([ids.juan]);
    });

    it("QUEUE-5: % and _ typed in the box match themselves, not anything", async () => {
      expect(await found("newOrder", "%_sure")).toEqual([ids.percent]);
      expect(await found("newOrder", "%")).toEqual([ids.percent]);
      expect(await found("newOrder", "0%_s")).toEqual([ids.percent]);
    });

    it("QUEUE-5: start and end page through the matches, and the total counts them all", async () => {
      const all = await search("newOrder", "example", 0, "All");
      expect(all.total).toBeGreaterThan(3);
      const first = await search("newOrder", "example", 0, 2);
      const second = await search("newOrder", "example", 2, 4);
      expect(first.total).toBe(all.total);
      expect([...first.rows, ...second.rows].map((row) => row.order_id)).toEqual(all.rows.slice(0, 4).map((row) => row.order_id));
    });

    it("QUEUE-5: an empty search is the folder itself", async () => {
      const result = await search("newOrder", "  ", 0, 10);
      expect(result.total).toBe(23);
      expect(result.rows.map((row) => row.order_id)).toEqual((await list("newOrder")).rows.map((row) => row.order_id));
    });
  });

  describe("future orders (ADMIN-3)", () => {
    it("ADMIN-3: twelve month tiles, January to December, count the future orders due in each month", async () => {
      const tiles = await futureMonths(harness.driver.query, { today: TODAY });
      expect(tiles.map((tile) => tile.name)).toEqual([
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
      ]);
      // From March on this year; January and February are next year's.
      expect(tiles.map((tile) => tile.processMonth)).toEqual([
        "2026-01", "2026-02", "2025-03", "2025-04", "2025-05", "2025-06", "2025-07", "2025-08", "2025-09", "2025-10", "2025-11", "2025-12",
      ]);
      expect(Object.fromEntries(tiles.filter((t) => t.count > 0).map((t) => [t.processMonth, t.count]))).toEqual({
        "2025-04": 2,
        "2025-05": 1,
        "2026-01": 1,
      });
      const total = tiles.reduce((sum, tile) => sum + tile.count, 0);
      expect(total).toBe((await folderCounts(harness.driver.query, viewer)).futureOrdersCount);
    });

    it("ADMIN-3: a year's tiles show that calendar year only", async () => {
      const tiles = await futureMonths(harness.driver.query, { today: TODAY, year: 2026 });
      expect(tiles.map((tile) => tile.processMonth)[0]).toBe("2026-01");
      expect(tiles.filter((t) => t.count > 0).map((t) => [t.processMonth, t.count])).toEqual([["2026-01", 1]]);
    });

    it("ADMIN-3: a month opens its table of orders, with that month's total and its process month shown", async () => {
      const april = await list("futureOrder", 1, 10, "2025-04");
      expect(april.rows.map((row) => row.order_id)).toEqual([ids.april2, ids.april1]);
      expect(april.total).toBe(2);
      expect(april.rows[0]).toMatchObject({ process_month: "2025-04", processMonth: "April 2025", processingDate: "28/04/2025", status: "Priority" });
      const all = await list("futureOrder");
      expect(all.total).toBe(4);
      expect(all.rows).toHaveLength(4);
    });

    it("ADMIN-3: an order stops being future on its processing day", async () => {
      const onTheDay = { today: "2025-04-03", staffId: MARIA.id };
      const counts = await folderCounts(harness.driver.query, onTheDay);
      expect(counts.futureOrdersCount).toBe(3);
      const tiles = await futureMonths(harness.driver.query, { today: "2025-04-03" });
      expect(tiles.find((tile) => tile.processMonth === "2025-04")?.count).toBe(1);
    });
  });

  describe("permanent delete (DESIGN §3)", () => {
    it("the erased order stays Deleted, counted, with its names, e-mail and phone blank", async () => {
      const [row] = (await search("deletedOrder", ids.erased!)).rows;
      expect(row).toMatchObject({
        order_id: ids.erased,
        process_status: "Deleted",
        first_name: null,
        middle_name: null,
        last_name: null,
        email: null,
        phone_number: null,
        name: "",
        telephone: "",
      });
      expect((await folderCounts(harness.driver.query, viewer)).deletedOrdersCount).toBe(1);
    });

    it("after a permanent delete the names, e-mail and phone can no longer be found in any of the queue's tables", async () => {
      expect(await search("allOrder", "zebedee")).toEqual({ rows: [], total: 0 });
      expect((await search("allOrder", "9998887777")).total).toBe(0);
      for (const base of Object.values(QUEUE_TABLES)) {
        const table = physicalTable(queueProjection, base);
        const [hit] = await harness.driver.query(
          `select count(*)::int as n from ${table} t where t::text ilike any (array['%zebedee%', '%quux%', '%9998887777%'])`,
        );
        expect({ table, n: hit?.n }).toEqual({ table, n: 0 });
      }
    });
  });

  describe("a renamed staff member", () => {
    it("QUEUE-3: is shown with their new name on the orders they hold", async () => {
      const renamed = "Maria Santos-Reyes";
      scenario.staffEvent(
        { type: "StaffMemberUpdated", data: { staffId: MARIA.id, name: renamed, email: "maria@example.com", role: "Team" } },
        `staff-${MARIA.id}`,
      );
      await harness.apply(scenario.log().slice(-1));
      const [row] = (await list("refundOrder")).rows;
      expect(row?.assign_to).toBe(renamed);
      expect((await list("myOrder")).rows.map((r) => r.assign_to)).toEqual([renamed, renamed]);
    });
  });
});
