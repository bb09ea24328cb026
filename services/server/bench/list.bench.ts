import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { createTestDatabase } from "@etd/infra/test-database";
import { generateDemoOrders } from "@etd/demo";
import { ordersList } from "@etd/projections";
import { createApp } from "@etd/api/internal/app.ts";
import { addStaffAccount } from "@etd/api/internal/commands/staff-accounts.ts";
import { openRuntime } from "../src/runtime.ts";

/*
 * P5 (issue 28): the queue list endpoint (GET /api/admin/get-orders-list/newOrder, page 1 of 25,
 * as the New Order page asks it) against a bare Express handler that runs the same query
 * (ordersList, the same SQL) on the same pool, with no sign-in check, no decoding, no envelope,
 * no middleware. Requests per second with the same client: P5_CONNECTIONS keep-alive loops
 * (default 16) for P5_SECONDS (default 10) each, bare and real taking turns three times, the best
 * turn of each counted. The last line is `P5 list_vs_bare=<ratio>`; goal ≥ 0.5.
 */

const ORDERS = Number(process.env.P5_ORDERS ?? 300);
const CONNECTIONS = Number(process.env.P5_CONNECTIONS ?? 16);
const SECONDS = Number(process.env.P5_SECONDS ?? 10);
const PASSWORD = "benchmark password";
const INTAKE = "benchmark-intake-token-0000000000";

const listen = async (app: express.Express): Promise<{ server: Server; base: string }> => {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

/** Requests per second: CONNECTIONS loops, each one request after another, for SECONDS. */
const rate = async (url: string, headers: Record<string, string>): Promise<number> => {
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  const loop = async () => {
    while (performance.now() < until) {
      const response = await fetch(url, { headers });
      if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
      await response.arrayBuffer();
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  return done / ((performance.now() - started) / 1000);
};

const main = async () => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-p5-"));
  const runtime = await openRuntime({
    databaseUrl: database.url,
    dataDir,
    jwtSecret: "benchmark-secret-that-is-long-enough-000",
    sessionTtlSeconds: 3600,
    intakeToken: INTAKE,
    maxUploadBytes: 1024 * 1024,
  });
  const servers: Server[] = [];
  try {
    const setup = { user: undefined, requestId: "bench", ip: "127.0.0.1" };
    await addStaffAccount(runtime.deps, setup, { name: "Bench Manager", email: "m@bench.local", role: "Manager", password: PASSWORD }, "bench");
    await (await runtime.startProjectors()).ready;
    const real = await listen(createApp(runtime.deps));
    servers.push(real.server);
    const call = async (method: string, url: string, body: unknown, authorization?: string) =>
      (await (
        await fetch(`${real.base}/api${url}`, { method, headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) }, body: JSON.stringify(body) })
      ).json()) as { status: number; message: string; jwtToken: string; data: { position: string } };
    const today = new Date().toISOString().slice(0, 10);
    let last = "";
    for (const [i, order] of generateDemoOrders({ seed: 5, count: ORDERS, now: new Date() }).entries()) {
      const answer = await call("POST", "/intake/orders", { ...order, order_id: String(500_001 + i), processing_date: today, processing_mode: "standard" }, `Bearer ${INTAKE}`);
      if (answer.status !== 1) throw new Error(`placing an order failed: ${answer.message}`);
      last = answer.data.position;
    }
    const token = (await call("POST", "/admin/admin-login", { email: "m@bench.local", password: PASSWORD })).jwtToken;
    // Every order is in the list before the first request is timed.
    const first = await fetch(`${real.base}/api/admin/get-orders-list/newOrder?page=1&limit=25&delay=1`, { headers: { authorization: token, "x-read-after": last } });
    const answer = (await first.json()) as { total: number; data: unknown[] };
    if (answer.total !== ORDERS || answer.data.length !== 25) throw new Error(`the New list holds ${answer.total} orders, ${answer.data.length} on page 1`);

    const bareApp = express();
    bareApp.get("/bare/newOrder", (_req, res, next) => {
      const day = new Date().toISOString().slice(0, 10);
      ordersList(runtime.deps.readDb.query, { queueKey: "newOrder", page: 1, limit: 25, today: day, staffId: "bench" })
        .then((page) => res.json(page.rows))
        .catch(next);
    });
    const bare = await listen(bareApp);
    servers.push(bare.server);

    const turns = { bare: [] as number[], list: [] as number[] };
    for (let turn = 0; turn < 3; turn++) {
      turns.bare.push(await rate(`${bare.base}/bare/newOrder`, {}));
      turns.list.push(await rate(`${real.base}/api/admin/get-orders-list/newOrder?page=1&limit=25&delay=1`, { authorization: token }));
    }
    const best = (values: number[]) => Math.max(...values);
    console.log(`bare handler: ${turns.bare.map((r) => r.toFixed(0)).join(", ")} requests/s; list endpoint: ${turns.list.map((r) => r.toFixed(0)).join(", ")} requests/s (${CONNECTIONS} connections, ${SECONDS} s a turn)`);
    console.log(`P5 list_vs_bare=${(best(turns.list) / best(turns.bare)).toFixed(2)} list_rps=${best(turns.list).toFixed(0)} bare_rps=${best(turns.bare).toFixed(0)}`);
  } finally {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

await main();
