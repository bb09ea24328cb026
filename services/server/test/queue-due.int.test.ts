import { generateDemoOrders } from "@etd/demo";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTAKE_TOKEN, startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 27, due in the queues, through the API: each list item says when its order is due, the
 * lists sort by it and filter the overdue and those due within the hour (optional parameters: a
 * client that sends none gets the lists as before). The API runs on a fixed clock that the test
 * moves between steps: every moment is written out, nothing waits for time.
 */

const available = await postgresAvailable();

/** The list item's fields before issue 27, in their order, then the due facts and the display values. */
const LIST_ITEM_KEYS = [
  "order_id", "process_status", "first_name", "middle_name", "last_name", "email", "phone_number", "created_at",
  "date_of_departure", "date_of_travel", "refund_date", "processing_date", "process_month", "assign_to", "assign_to_id",
  "processing_mode", "landing_domain", "citizenship", "due_at", "clock_state", "time_left_ms",
  "id", "name", "telephone", "status", "date", "arrivalDate", "departureDate", "refundDate", "processingDate", "processMonth", "due",
];

describe.skipIf(!available)("issue 27: due in the queues, through the API", () => {
  let api: TestApi;
  let clockMs = Date.parse("2026-03-02T08:00:00.000Z");
  const at = (iso: string) => void (clockMs = Date.parse(iso));
  let admin: string;
  let team: string;
  const ids = { P1: "2701001", S1: "2701002", P2: "2701003", S2: "2701004" };

  const place = async (orderId: string, mode: "standard" | "priority") => {
    const [body] = generateDemoOrders({ seed: Number(orderId.slice(-2)), count: 1, now: new Date(clockMs) });
    const day = new Date(clockMs).toISOString().slice(0, 10);
    const placed = await api.call("POST", "/intake/orders", { ...body, order_id: orderId, processing_mode: mode, processing_date: day }, `Bearer ${INTAKE_TOKEN}`);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  };

  /** A list read once the read models hold the order's last event. */
  const list = async (path: string, token = admin, caughtUpWith = ids.S2) => (await api.readCaughtUp(path, token, caughtUpWith)).body;
  const orderIds = (body: Record<string, any>) => (body.data as { order_id: string }[]).map((row) => row.order_id);

  beforeAll(async () => {
    api = await startTestApi({ runtime: { now: () => new Date(clockMs), sessionTtlSeconds: 30 * 24 * 3600 } });
    [admin, team] = [await api.login("Admin"), await api.login("Team")];
    // 08:00: a Priority and a Standard order under the default policy (4 h, 24 h).
    await place(ids.P1, "priority");
    await place(ids.S1, "standard");
    // 09:00: Priority 1 h, Standard 2 h, for orders paid from now on.
    at("2026-03-02T09:00:00.000Z");
    expect((await api.call("PUT", "/admin/service-levels", { standard: 120, priority: 60, future: 1440 }, admin)).status).toBe(200);
    // 10:00: one of each under the new policy: due 11:00 and 12:00.
    at("2026-03-02T10:00:00.000Z");
    await place(ids.P2, "priority");
    await place(ids.S2, "standard");
    at("2026-03-02T11:30:00.000Z");
  });

  afterAll(async () => {
    await api?.close();
  });

  it("issue 27: each item says when it is due (the policy in force when it was paid); a client that sends no new parameter gets the same answer plus these fields", async () => {
    const body = await list("/admin/get-orders-list/priorityOrder?page=1&limit=10&delay=1&userName=x");
    expect(Object.keys(body)).toEqual(["status", "message", "data", "total", "page", "limit"]);
    expect(body).toMatchObject({ status: 1, message: "Orders loaded.", total: 2, page: 1, limit: 10 });
    const byId = new Map((body.data as Record<string, unknown>[]).map((row) => [row.order_id, row]));
    expect(Object.keys(byId.get(ids.P1)!)).toEqual(LIST_ITEM_KEYS);
    expect(byId.get(ids.P1)).toMatchObject({ due_at: "2026-03-02T12:00:00.000Z", clock_state: "running", time_left_ms: null, due: "03-02-2026 12:00:00" });
    expect(byId.get(ids.P2)).toMatchObject({ due_at: "2026-03-02T11:00:00.000Z", clock_state: "running" });
  });

  it("issue 27: sort=due lists overdue first, then the earliest due, Priority before Standard at the same moment", async () => {
    expect(orderIds(await list("/admin/get-orders-list/allOrder?limit=All&sort=due"))).toEqual([ids.P2, ids.P1, ids.S2, ids.S1]);
  });

  it("issue 27: due=overdue and due=within-hour keep those orders as of the server's clock, and the total counts them", async () => {
    const overdue = await list("/admin/get-orders-list/allOrder?limit=10&due=overdue");
    expect([orderIds(overdue), overdue.total]).toEqual([[ids.P2], 1]);
    const soon = await list("/admin/get-orders-list/allOrder?limit=10&due=within-hour&sort=due");
    expect([orderIds(soon), soon.total]).toEqual([[ids.P1, ids.S2], 2]);
    const newSoon = await list("/admin/get-orders-list/newOrder?due=within-hour", team);
    expect([orderIds(newSoon), newSoon.total]).toEqual([[ids.S2], 1]);
    // Half an hour later the Priority order paid first is overdue too.
    at("2026-03-02T12:00:00.000Z");
    const later = await list("/admin/get-orders-list/priorityOrder?due=overdue&sort=due");
    expect([orderIds(later), later.total]).toEqual([[ids.P2, ids.P1], 2]);
    at("2026-03-02T11:30:00.000Z");
  });

  it("issue 27: a search and select all take the filter too", async () => {
    const searched = await api.call("POST", "/admin/search-order", { folderName: "allOrder", searchVal: "27010", start: 0, end: 10, due: "within-hour", sort: "due" }, admin);
    expect(searched.body).toMatchObject({ status: 1, total: 2 });
    expect(orderIds(searched.body)).toEqual([ids.P1, ids.S2]);
    const selected = await api.call("POST", "/admin/select-all-orders", { folderName: "allOrder", due: "overdue" }, admin);
    expect((selected.body.data as { orderId: string }[]).map((order) => order.orderId)).toEqual([ids.P2]);
  });

  it("issue 27: a due filter or sort the API does not know is refused with its message, and the list is not read", async () => {
    for (const [path, message] of [
      ["/admin/get-orders-list/newOrder?due=late", "Due must be one of: overdue, within-hour."],
      ["/admin/get-orders-list/newOrder?due=OVERDUE", "Due must be one of: overdue, within-hour."],
      ["/admin/get-orders-list/newOrder?sort=oldest", "Sort must be one of: due."],
      [`/admin/get-orders-list/newOrder?sort=${"d".repeat(5000)}`, "Sort must be one of: due."],
    ] as const) {
      const answer = await api.call("GET", path, undefined, team);
      expect(answer, path.slice(0, 80)).toMatchObject({ status: 400, body: { status: 0, message } });
    }
    const body = await api.call("POST", "/admin/search-order", { folderName: "newOrder", due: 1 }, team);
    expect(body.status).toBe(400);
  });
});
