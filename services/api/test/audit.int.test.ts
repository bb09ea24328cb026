import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!available)("auditors replay an order (CARD-4)", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it("history, the order as it stood at a moment, the changes between two moments, and a JSON-lines export", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    await pause(5);
    const afterPlacing = new Date().toISOString();
    await pause(5);
    await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, team);
    await api.call("POST", "/admin/add-new-remark", { orderId, remark: "Called, no answer.", telephone: "Y" }, team);
    await pause(5);
    const afterWork = new Date().toISOString();
    await pause(5);
    await api.call("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: "Completed" }, team);

    const manager = await api.login("Manager");
    const history = await api.call("GET", `/audit/orders/${orderId}/history`, undefined, manager);
    expect(history.body.data.map((e: { type: string }) => e.type)).toEqual(["OrderPlaced", "OrderAssigned", "RemarkAdded", "OrderStatusChanged"]);
    expect(history.body.data[1]).toMatchObject({ streamPosition: 2, actor: { kind: "staff", name: "Tessa Cruz", role: "Team" } });

    const asPlaced = await api.call("GET", `/audit/orders/${orderId}/as-of?at=${afterPlacing}`, undefined, manager);
    expect(asPlaced.body.data).toMatchObject({ eventsApplied: 1 });
    expect(asPlaced.body.data.order.assignee).toBeUndefined();
    const intake = asPlaced.body.data.order.status as string;
    expect(["New", "Priority"]).toContain(intake);
    const asWorked = await api.call("GET", `/audit/orders/${orderId}/as-of?at=${afterWork}`, undefined, manager);
    expect(asWorked.body.data).toMatchObject({ eventsApplied: 3, order: { status: "Pending", assignee: { staff: { name: "Tessa Cruz" } } } });
    expect(asWorked.body.data.remarks).toEqual([expect.objectContaining({ by: "Tessa Cruz", remark: "Called, no answer.", flags: ["telephone"] })]);

    const diff = await api.call("GET", `/audit/orders/${orderId}/diff?from=${afterPlacing}&to=${afterWork}`, undefined, manager);
    const paths = diff.body.data.changes.map((c: { path: string }) => c.path);
    expect(paths).toEqual(expect.arrayContaining(["order.status", "order.statusLabel", "remarks"]));
    expect(diff.body.data.changes.find((c: { path: string }) => c.path === "order.status")).toMatchObject({ before: intake, after: "Pending" });
    expect(diff.body.data.events.map((e: { type: string }) => e.type)).toEqual(["OrderAssigned", "RemarkAdded"]);

    const exported = await fetch(`${api.base}/api/audit/orders/${orderId}/export`, { headers: { authorization: manager } });
    expect(exported.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const lines = (await exported.text()).trim().split("\n").map((line) => JSON.parse(line) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(["OrderPlaced", "OrderAssigned", "RemarkAdded", "OrderStatusChanged"]);

    expect((await api.call("GET", `/audit/orders/${orderId}/history`, undefined, team)).status).toBe(403);
    expect((await api.call("GET", `/audit/orders/999999999/history`, undefined, manager)).status).toBe(404);
    expect((await api.call("GET", `/audit/orders/${orderId}/as-of?at=yesterday`, undefined, manager)).status).toBe(400);
    // Moments the events' ISO timestamps cannot be compared with: "1" (Date.parse: 2001) and a six-digit year.
    expect((await api.call("GET", `/audit/orders/${orderId}/as-of?at=1`, undefined, manager)).status).toBe(400);
    expect((await api.call("GET", `/audit/orders/${orderId}/as-of?at=%2B275760-09-13T00:00:00.000Z`, undefined, manager)).status).toBe(400);
  });
});
