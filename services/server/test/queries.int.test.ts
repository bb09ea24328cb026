import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

/*
 * The query endpoints of both specs, end to end: commands through the API, the projectors in the
 * process, queries read after the command's position (X-Read-After), as the client would.
 */
describe.skipIf(!available)("query endpoints over the read models", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  /** A GET or POST query that first waits for the read models to reach `position`. */
  const read = async (method: string, path: string, token: string, position?: string, body?: unknown) => {
    const response = await fetch(`${api.base}/api${path}`, {
      method,
      headers: { authorization: token, ...(position ? { "x-read-after": position } : {}), ...(body ? { "content-type": "application/json" } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it("SHELL-5 / QUEUE-5 / QUEUE-9: an assignment moves the order from New or Priority to the assignee's My Orders and Pending, in lists and counts", async () => {
    const [orderId] = await api.placeOrders(1);
    const placed = (await api.runtime.deps.store.readStream(`order-${orderId}`))[0]!;
    const team = await api.login("Team");
    const before = await read("GET", "/admin/get-all-folder-count?userName=x", team, `${placed.position.tx}.${placed.position.seq}`);
    expect(Object.keys(before.body.data)).toEqual([
      "myOrdersCount", "newOrdersCount", "priorityOrdersCount", "pendingOrdersCount", "completedOrdersCount", "awaitingOrdersCount",
      "awaitingGovtCount", "futureOrdersCount", "contactCustomerOrdersCount", "customerCalledCount", "deletedOrdersCount",
      "allOrdersCount", "refundOrdersCount", "chargeBack",
    ]);
    const assigned = await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "Tessa Cruz" }, team);
    const position = assigned.body.data.position as string;
    const after = await read("GET", "/admin/get-all-folder-count?userName=x", team, position);
    expect(after.body.data.myOrdersCount).toBe(before.body.data.myOrdersCount + 1);
    expect(after.body.data.pendingOrdersCount).toBe(before.body.data.pendingOrdersCount + 1);
    expect(after.body.data.newOrdersCount + after.body.data.priorityOrdersCount).toBe(before.body.data.newOrdersCount + before.body.data.priorityOrdersCount - 1);

    const mine = await read("GET", "/admin/get-orders-list/myOrder?page=1&limit=10&delay=1&userName=x", team, position);
    expect(mine.body).toMatchObject({ status: 1, total: after.body.data.myOrdersCount });
    expect(mine.body.data.map((row: { order_id: string }) => row.order_id)).toContain(orderId);
    const othersView = await read("GET", "/admin/get-orders-list/myOrder?page=1&limit=10", await api.login("Manager"), position);
    expect(othersView.body.data.map((row: { order_id: string }) => row.order_id)).not.toContain(orderId);
    const fresh = await read("GET", "/admin/get-orders-list/newOrder?page=1&limit=All", team, position);
    expect(fresh.body.data.map((row: { order_id: string }) => row.order_id)).not.toContain(orderId);
  });

  it("QUEUE-5: search finds an order by part of its e-mail, case-insensitively, within a folder", async () => {
    const [orderId] = await api.placeOrders(1);
    const placed = (await api.runtime.deps.store.readStream(`order-${orderId}`))[0]!;
    const email = (placed.data as { personal: { email: string } }).personal.email;
    const team = await api.login("Team");
    const found = await read("POST", "/admin/search-order", team, `${placed.position.tx}.${placed.position.seq}`, {
      start: 0,
      end: 10,
      searchVal: email.slice(1, 8).toUpperCase(),
      folderName: "allOrder",
    });
    expect(found.body.status).toBe(1);
    expect(found.body.data.map((row: { order_id: string }) => row.order_id)).toContain(orderId);
    expect((await read("POST", "/admin/search-order", await api.login("Telecaller"), undefined, { start: 0, end: 10, searchVal: "a", folderName: "allOrder" })).status).toBe(403);
  });

  it("ORDER-1 / ORDER-9: the order detail holds the application, the comment history and the document", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    const remark = await api.call("POST", "/admin/add-new-remark", { orderId, remark: "Passport scan is blurry.", whatsapp: "Y" }, team);
    const detail = await read("GET", `/admin/get-orders-details/${orderId}`, team, remark.body.data.position as string);
    expect(detail.body).toMatchObject({ status: 1, data: { order_id: orderId } });
    expect(detail.body.data.remark).toEqual([expect.objectContaining({ remark: "Passport scan is blurry.", remark_name: "Tessa Cruz", whatsapp: "Y", telephone: "N" })]);
    expect((await read("GET", "/admin/get-orders-details/999999999", team)).status).toBe(404);
  });

  it("ADMIN-1: the team list names every member and never shows a password", async () => {
    const admin = await api.login("Admin");
    const added = await api.call("POST", "/admin/add-team-member", { name: "Lea Santos", email: "lea@demo.local", password: "secret-lea", type: "Night Staff" }, admin);
    const list = await read("GET", "/admin/get-team-member-list", admin, added.body.data.position as string | undefined);
    const lea = list.body.data.find((m: { email: string }) => m.email === "lea@demo.local");
    expect(lea).toMatchObject({ name: "Lea Santos", type: "Night Staff" });
    expect(JSON.stringify(list.body)).not.toContain("secret-lea");
    expect(list.body.data.every((m: { password?: string }) => m.password === undefined || /^\**$/.test(m.password))).toBe(true);
    const types = await read("GET", "/admin/get-team-member-type", admin);
    expect(types.body.data).toEqual(["Admin", "Manager", "Team", "Telecaller", "Night Staff"]);
    expect((await read("GET", "/admin/get-team-member-list", await api.login("Team"))).status).toBe(403);
  });

  it("ADMIN-4 / ADMIN-5: the country and processed-by reports answer in the specs' row shapes; Processed By only to an Admin", async () => {
    const team = await api.login("Team");
    const placed = await api.placeOrders(2);
    const last = (await api.runtime.deps.store.readStream(`order-${placed[1]}`)).at(-1)!;
    const country = await read("POST", "/admin/get-country-order-list", team, `${last.position.tx}.${last.position.seq}`, { fromDate: "", toDate: "" });
    expect(country.body.status).toBe(1);
    expect(country.body.data[0]).toEqual(expect.objectContaining({ citizenship_id: expect.any(String), count: expect.any(Number), standard_count: expect.any(Number), priority_count: expect.any(Number), future_count: expect.any(Number) }));
    const processed = await read("POST", "/admin/get-processed-by-count", await api.login("Admin"), undefined, { fromDate: "2025-01-01", toDate: "" });
    expect(processed.body.status).toBe(1);
    // The counts sum up Order Processed (ADMIN-7), which is Admin only (000 §6); permissions.int walks every role.
    expect(await read("POST", "/admin/get-processed-by-count", team, undefined, { fromDate: "2025-01-01", toDate: "" })).toEqual({
      status: 403,
      body: { status: 0, message: "You do not have permission to do this.", data: null },
    });
    expect((await read("POST", "/admin/get-country-order-list", team, undefined, { fromDate: "2025-02-30", toDate: "" })).status).toBe(400);
  });
});
