import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import express from "express";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDeps } from "@etd/api/internal/api-deps.ts";
import { createApp } from "@etd/api/internal/app.ts";
import { createRequestMetrics, METRICS_REFUSED, mountMetrics } from "@etd/api/internal/metrics.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

const METRICS_TOKEN = "a-metrics-token-for-tests-0123456789";
const SPOOFED = "203.0.113.7";

/** An address of this machine that is not loopback, if it has one (a test connects to it). */
const outsideAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === "IPv4" && !i.internal)?.address;

/**
 * Issue 9 item 11: X-Forwarded-For sets the client's address only when TRUST_PROXY names the
 * proxies, and /metrics answers only this host (decided on the connection, which no header
 * changes) or a scraper holding METRICS_TOKEN.
 */
describe.skipIf(!available)("issue 9 item 11: trusted proxies and /metrics access", () => {
  let api: TestApi;
  let admin: string;
  let orderId: string;
  const servers: Server[] = [];

  /** The same deps served by another app, configured differently; answers its base URL. */
  const serve = async (changes: Partial<AppDeps>, host = "127.0.0.1") => {
    const server = createApp({ ...api.runtime.deps, ...changes }).listen(0, host);
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.login("Admin");
    [orderId] = (await api.placeOrders(1)) as [string];
  });

  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await api?.close();
  });

  /** Adds a remark through `base` with this X-Forwarded-For; answers the requestIp its event records. */
  const recordedIp = async (base: string, forwardedFor: string) => {
    const response = await fetch(`${base}/api/admin/add-new-remark`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: admin, "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ orderId, remark: `from ${forwardedFor}` }),
    });
    expect(response.status, await response.text()).toBe(200);
    const events = await api.runtime.deps.store.readStream(`order-${orderId}`);
    const last = events.at(-1)!;
    expect(last.type).toBe("RemarkAdded");
    return (last.metadata as { requestIp?: string }).requestIp;
  };

  const isLoopback = (ip: string | undefined) => ip === "127.0.0.1" || ip === "::ffff:127.0.0.1" || ip === "::1";

  describe("X-Forwarded-For (TRUST_PROXY)", () => {
    it("is ignored by default: the audit records the connection's address, not the spoofed one", async () => {
      const ip = await recordedIp(api.base, SPOOFED);
      expect(isLoopback(ip), `recorded ${ip}`).toBe(true);
    });

    it("is ignored when the configured proxies do not include the sender (TRUST_PROXY=10.0.0.0/8)", async () => {
      const base = await serve({ trustProxy: ["10.0.0.0/8"] });
      const ip = await recordedIp(base, SPOOFED);
      expect(isLoopback(ip), `recorded ${ip}`).toBe(true);
    });

    it("sets the client's address when the sender is a configured proxy (TRUST_PROXY=loopback, or 1 hop)", async () => {
      expect(await recordedIp(await serve({ trustProxy: ["loopback"] }), SPOOFED)).toBe(SPOOFED);
      // One hop: the last address the proxy added, not what the client wrote before it.
      expect(await recordedIp(await serve({ trustProxy: 1 }), `198.51.100.1, ${SPOOFED}`)).toBe(SPOOFED);
    });
  });

  describe("/metrics", () => {
    const metrics = (base: string, headers: Record<string, string> = {}) => fetch(`${base}/metrics`, { headers });

    const expectMetrics = async (response: Response) => {
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("# TYPE projection_lag_events gauge");
    };

    const expectRefused = async (response: Response) => {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ status: 0, message: METRICS_REFUSED, data: null });
    };

    it("answers this host, whatever X-Forwarded-For says when no proxy is trusted", async () => {
      await expectMetrics(await metrics(api.base));
      await expectMetrics(await metrics(api.base, { "x-forwarded-for": SPOOFED }));
    });

    it("refuses a client forwarded by a trusted proxy on this host, unless it holds METRICS_TOKEN", async () => {
      const base = await serve({ trustProxy: ["loopback"], metricsToken: METRICS_TOKEN });
      await expectRefused(await metrics(base, { "x-forwarded-for": SPOOFED }));
      await expectRefused(await metrics(base, { "x-forwarded-for": SPOOFED, authorization: "Bearer not-the-token-0123456789" }));
      await expectRefused(await metrics(base, { "x-forwarded-for": SPOOFED, authorization: METRICS_TOKEN }));
      await expectMetrics(await metrics(base, { "x-forwarded-for": SPOOFED, authorization: `Bearer ${METRICS_TOKEN}` }));
      // A local client through the same proxy is still local.
      await expectMetrics(await metrics(base, { "x-forwarded-for": "127.0.0.1" }));
    });

    it.skipIf(!outsideAddress)("refuses a connection from another address of this machine (not loopback), unless it holds the token", async () => {
      const withoutToken = await serve({}, outsideAddress);
      await expectRefused(await metrics(withoutToken));
      // A spoofed header cannot make it local.
      await expectRefused(await metrics(withoutToken, { "x-forwarded-for": "127.0.0.1" }));
      await expectRefused(await metrics(withoutToken, { authorization: `Bearer ${METRICS_TOKEN}` }));

      const withToken = await serve({ metricsToken: METRICS_TOKEN }, outsideAddress);
      await expectRefused(await metrics(withToken));
      await expectMetrics(await metrics(withToken, { authorization: `Bearer ${METRICS_TOKEN}` }));
    });

    it("refuses a remote client (the decision injected) without the token, and serves it with the token", async () => {
      const app = express();
      mountMetrics(app, api.runtime.deps, createRequestMetrics(), { token: METRICS_TOKEN, isLocal: () => false });
      const server = app.listen(0, "127.0.0.1");
      servers.push(server);
      await new Promise((resolve) => server.once("listening", resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await expectRefused(await metrics(base));
      await expectMetrics(await metrics(base, { authorization: `Bearer ${METRICS_TOKEN}` }));
    });
  });
});
