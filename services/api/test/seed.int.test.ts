import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";
import { openRuntime, type Runtime } from "../src/runtime.ts";
import { DEMO_HISTORY_DAYS, seedDemo } from "../src/seed/seed.ts";

/*
 * The demo data tells a story in time (issue 10 item 10): seeded as a historical import, each
 * event carries the moment it happened over the last 60 days, in order within its order, so
 * refund dates and the date-range reports differ from day to day. A command sent afterwards is
 * stamped with the server's clock.
 */

const available = await postgresAvailable();

const PASSWORD = "demo password for the seed test";
const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface LoggedEvent {
  readonly stream: string;
  readonly type: string;
  readonly occurredAt: number;
  readonly createdAt: string | null;
  readonly refundDate: string | null;
}

describe.skipIf(!available)("demo data seeded as a historical import", () => {
  let database: TestDatabase;
  let dataDir: string;
  let runtime: Runtime;
  let server: Server;
  let base: string;
  let token: string;
  let seededAt: number;
  let events: LoggedEvent[];

  const call = async (method: string, apiPath: string, body?: unknown) => {
    const response = await fetch(`${base}/api${apiPath}`, {
      method,
      headers: { authorization: token, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), "etd-seed-"));
    runtime = await openRuntime({ databaseUrl: database.url, dataDir, jwtSecret: "a-test-secret-that-is-long-enough-0123456789", sessionTtlSeconds: 3600, intakeToken: undefined, maxUploadBytes: 1024 * 1024 });
    seededAt = Date.now();
    // No `now`: the history ends at the server's clock, as on a first `npm start`.
    await seedDemo(runtime.deps, { password: PASSWORD, orderCount: 400 });
    await (await runtime.startProjectors()).ready;
    server = createApp(runtime.deps).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const login = await fetch(`${base}/api/admin/admin-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "admin@demo.local", password: PASSWORD }) });
    token = ((await login.json()) as { jwtToken: string }).jwtToken;
    const rows = await runtime.driver.query(
      `select stream_id, type, metadata->>'occurredAt' as occurred_at, data->>'createdAt' as created_at, data->>'refundDate' as refund_date
         from es_events order by global_position`,
    );
    events = rows.map((row) => ({
      stream: String(row.stream_id),
      type: String(row.type),
      occurredAt: Date.parse(String(row.occurred_at)),
      createdAt: row.created_at as string | null,
      refundDate: row.refund_date as string | null,
    }));
  }, 180_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await runtime?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("spreads the events over the last 60 days, none of them after the seeding began", () => {
    const days = new Set(events.map((e) => dayOf(e.occurredAt)));
    const lastSixty = Array.from({ length: DEMO_HISTORY_DAYS }, (_, i) => dayOf(seededAt - i * DAY));
    expect(lastSixty.filter((day) => days.has(day)).length).toBeGreaterThanOrEqual(50);
    expect(Math.max(...events.map((e) => e.occurredAt))).toBeLessThanOrEqual(Date.now());
    // Staff and gateways were there before the first order; nothing is older than the history.
    expect(Math.min(...events.map((e) => e.occurredAt))).toBeGreaterThan(seededAt - (DEMO_HISTORY_DAYS + 1) * DAY);
  });

  it("keeps each order's events in time order, none before the order was placed", () => {
    const byOrder = Map.groupBy(
      events.filter((e) => e.stream.startsWith("order-")),
      (e) => e.stream,
    );
    expect(byOrder.size).toBe(400);
    let worked = 0;
    for (const [stream, story] of byOrder) {
      const placed = story[0]!;
      expect(placed.type, stream).toBe("OrderPlaced");
      expect(placed.occurredAt, stream).toBe(Date.parse(placed.createdAt!));
      const times = story.map((e) => e.occurredAt);
      expect(times, stream).toEqual([...times].sort((a, b) => a - b));
      if (story.length > 1) {
        worked++;
        // Assigned some minutes after it was placed (or fell due), not in the same instant.
        expect(times[1]! - times[0]!, stream).toBeGreaterThanOrEqual(5 * 60_000);
      }
    }
    expect(worked).toBeGreaterThan(150);
  });

  it("gives refunds the day they were asked for, so the refund dates differ", async () => {
    const requested = events.filter((e) => e.type === "OrderRefundRequested");
    expect(requested.length).toBeGreaterThanOrEqual(2);
    for (const e of requested) expect(e.refundDate).toBe(dayOf(e.occurredAt));
    const list = await call("GET", "/admin/get-orders-list/refundOrder?limit=All");
    expect(list.body.status).toBe(1);
    const dates = new Set((list.body.data as { refund_date: string }[]).map((row) => row.refund_date));
    expect(dates.size).toBeGreaterThanOrEqual(2);
  });

  it("shows the country and processed-by reports on many different days of a date range", async () => {
    const daysWith = async (report: string) => {
      let days = 0;
      for (let i = 0; i < DEMO_HISTORY_DAYS; i++) {
        const day = dayOf(seededAt - i * DAY);
        const answer = await call("POST", report, { fromDate: day, toDate: day });
        expect(answer.body.status).toBe(1);
        if ((answer.body.data as { count: number }[]).some((row) => row.count > 0)) days++;
      }
      return days;
    };
    expect(await daysWith("/admin/get-country-order-list")).toBeGreaterThanOrEqual(40);
    expect(await daysWith("/admin/get-processed-by-count")).toBeGreaterThanOrEqual(20);
    // The whole range holds them all at once.
    const whole = await call("POST", "/admin/get-processed-by-count", { fromDate: dayOf(seededAt - DEMO_HISTORY_DAYS * DAY), toDate: dayOf(Date.now()) });
    expect((whole.body.data as { count: number }[]).reduce((sum, row) => sum + row.count, 0)).toBeGreaterThan(40);
  });

  it("stamps a command sent after seeding with the server's clock, and refunds it today", async () => {
    const fresh = events.find((e) => e.type === "OrderPlaced" && !events.some((other) => other.stream === e.stream && other.type !== "OrderPlaced"))!;
    const orderId = fresh.stream.slice("order-".length);
    const before = Date.now();
    const answer = await call("POST", "/admin/add-new-remark", { orderId, remark: "Customer cancelled.", statusRefund: "Y" });
    const after = Date.now();
    expect(answer.body).toMatchObject({ status: 1 });
    const stream = await runtime.deps.store.readStream(fresh.stream);
    const [remark, refund] = stream.slice(-2);
    expect(remark!.type).toBe("RemarkAdded");
    const occurredAt = Date.parse((remark!.metadata as { occurredAt: string }).occurredAt);
    expect(occurredAt).toBeGreaterThanOrEqual(before);
    expect(occurredAt).toBeLessThanOrEqual(after);
    expect(refund!.data).toMatchObject({ refundDate: dayOf(after) });
  });
});
