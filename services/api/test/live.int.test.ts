import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream } from "./support/sse-stream.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

describe.skipIf(!available)("live updates and read-your-writes (CARD-3)", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it("a change made by one staff member reaches another's event stream with the read model and position", async () => {
    const [orderId] = await api.placeOrders(1);
    const watcher = await api.login("Manager");
    const events: { event: string; data: string }[] = [];
    const stream = await openStream(`${api.base}/api/live?token=${encodeURIComponent(watcher)}`, (e) => events.push(e));
    try {
      expect(stream.status).toBe(200);
      for (let i = 0; i < 50 && !events.some((e) => e.event === "hello"); i++) await new Promise((r) => setTimeout(r, 20));
      expect(JSON.parse(events.find((e) => e.event === "hello")!.data)).toHaveProperty("positions.order_details");

      const claimed = await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, await api.login("Team"));
      const position = claimed.body.data.position as string;
      const seen = async () => events.some((e) => e.event === "change" && JSON.parse(e.data).projection === "order_details" && JSON.parse(e.data).position === position);
      for (let i = 0; i < 100 && !(await seen()); i++) await new Promise((r) => setTimeout(r, 20));
      expect(await seen()).toBe(true);
    } finally {
      stream.close();
    }
  });

  it("refuses the stream without a valid session", async () => {
    const none = await openStream(`${api.base}/api/live`, () => {});
    const bad = await openStream(`${api.base}/api/live?token=nonsense`, () => {});
    expect([none.status, bad.status]).toEqual([401, 401]);
  });

  it("X-Read-After makes a query wait until the read models have applied the command", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    const remark = await api.call("POST", "/admin/add-new-remark", { orderId, remark: "Visible at once." }, team);
    const response = await fetch(`${api.base}/api/admin/get-orders-details/${orderId}`, {
      headers: { authorization: team, "x-read-after": remark.body.data.position as string },
    });
    expect(response.headers.get("x-read-after-reached")).toBe("true");
    const body = (await response.json()) as { data: { remark: { remark: string }[] } };
    expect(body.data.remark.map((r) => r.remark)).toContain("Visible at once.");
  });

  it("serves readiness and Prometheus metrics with projection lag and horizon age", async () => {
    const ready = await api.call("GET", "/ready");
    expect(ready).toMatchObject({ status: 200, body: { status: 1, message: "Ready" } });
    const metrics = await (await fetch(`${api.base}/metrics`)).text();
    expect(metrics).toMatch(/^projection_lag_events\{projection="order_details",build="\d+",status="live"\} 0$/m);
    expect(metrics).toMatch(/^event_store_horizon_age_seconds \d/m);
    expect(metrics).toMatch(/^http_request_duration_seconds_count\{method="PUT",route="\/admin\/assign-order-status",status="2xx"\} \d+$/m);
  });
});
