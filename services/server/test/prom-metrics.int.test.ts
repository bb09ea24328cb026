import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@etd/api/internal/app.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

/** The value of one series as a scraper reads it, or undefined when the series is absent. */
const series = (text: string, line: string): number | undefined => {
  const escaped = line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const found = new RegExp(`^${escaped} (\\S+)$`, "m").exec(text)?.[1];
  return found === undefined ? undefined : Number(found);
};

/**
 * Issue 28: /metrics is prom-client's, with Node's default metrics (event-loop lag, heap, GC)
 * beside the service's own, whose names, labels and types are what they were before.
 */
describe.skipIf(!available)("issue 28: /metrics by prom-client, with the process's own figures", () => {
  let api: TestApi;
  const servers: Server[] = [];

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await api?.close();
  });

  const scrape = async (base = api.base) => {
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  it("carries Node's default metrics: event-loop lag, heap, resident memory, CPU, GC", async () => {
    const text = await scrape();
    for (const name of ["nodejs_eventloop_lag_seconds", "nodejs_eventloop_lag_p99_seconds", "nodejs_heap_size_used_bytes", "process_resident_memory_bytes", "process_cpu_seconds_total"]) {
      expect(text, name).toMatch(new RegExp(`^${name} \\d`, "m"));
    }
    expect(text).toContain("# TYPE nodejs_gc_duration_seconds histogram");
  });

  it("keeps the service's own series as they were: lag by build and reactor, horizon, latency by endpoint, two-factor refusals, heap", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    expect((await api.call("POST", "/admin/add-new-remark", { orderId, remark: "Counted." }, team)).status).toBe(200);
    const text = await scrape();

    for (const [name, type] of [
      ["projection_lag_events", "gauge"],
      ["projection_lag_seconds", "gauge"],
      ["projection_events_applied_total", "counter"],
      ["reactor_lag_events", "gauge"],
      ["reactor_lag_seconds", "gauge"],
      ["reactor_lease_held", "gauge"],
      ["event_store_horizon_age_seconds", "gauge"],
      ["process_resident_memory_bytes", "gauge"],
      ["nodejs_heap_used_bytes", "gauge"],
      ["two_factor_codes_refused_total", "counter"],
      ["http_request_duration_seconds", "histogram"],
    ]) {
      // Once each: the process's registry and the app's never hold one name twice.
      expect(text.match(new RegExp(`^# TYPE ${name} .*$`, "gm")), name).toEqual([`# TYPE ${name} ${type}`]);
    }
    expect(text).toMatch(/^projection_lag_events\{projection="order_details",build="\d+",status="live"\} \d+$/m);
    expect(text).toMatch(/^projection_events_applied_total\{projection="order_details",build="\d+",status="live"\} [1-9]\d*$/m);
    expect(text).toMatch(/^reactor_lease_held\{reactor="[^"]+"\} [01]$/m);
    for (const reason of ["wrong_code", "used_code", "wrong_recovery_code", "account_limit"]) {
      expect(series(text, `two_factor_codes_refused_total{reason="${reason}"}`), reason).toBe(0);
    }
    expect(series(text, `http_request_duration_seconds_count{method="POST",route="/admin/add-new-remark",status="2xx"}`)).toBe(1);
    expect(series(text, `http_request_duration_seconds_bucket{le="+Inf",method="POST",route="/admin/add-new-remark",status="2xx"}`)).toBe(1);
    expect(series(text, "nodejs_heap_used_bytes")).toBeGreaterThan(0);
  });

  it("counts each app in its own registry: a second app on the same process and dependencies starts from its own zero", async () => {
    const server = createApp(api.runtime.deps).listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    const other = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const text = await scrape(other);
    expect(series(text, `http_request_duration_seconds_count{method="POST",route="/admin/add-new-remark",status="2xx"}`)).toBeUndefined();
    // The database's figures are the same for both: read at scrape time.
    expect(text).toMatch(/^projection_lag_events\{projection="order_details",build="\d+",status="live"\} \d+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });
});
