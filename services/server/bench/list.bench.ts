import express from "express";
import { generateDemoOrders } from "@etd/demo";
import { ordersList } from "@etd/projections";
import { BENCH_INTAKE_TOKEN, withBenchApi } from "./bench-runtime.ts";

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

const main = () =>
  withBenchApi("p5", [["m@bench.local", "Manager"]], async ({ runtime, base, call, login, listen }) => {
    const today = new Date().toISOString().slice(0, 10);
    let last = "";
    for (const [i, order] of generateDemoOrders({ seed: 5, count: ORDERS, now: new Date() }).entries()) {
      const answer = (await call("POST", "/intake/orders", { ...order, order_id: String(500_001 + i), processing_date: today, processing_mode: "standard" }, `Bearer ${BENCH_INTAKE_TOKEN}`)) as {
        status: number;
        message: string;
        data: { position: string };
      };
      if (answer.status !== 1) throw new Error(`placing an order failed: ${answer.message}`);
      last = answer.data.position;
    }
    const token = await login("m@bench.local");
    // Every order is in the list before the first request is timed.
    const first = await fetch(`${base}/admin/get-orders-list/newOrder?page=1&limit=25&delay=1`, { headers: { authorization: token, "x-read-after": last } });
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

    const turns = { bare: [] as number[], list: [] as number[] };
    for (let turn = 0; turn < 3; turn++) {
      turns.bare.push(await rate(`${bare}/bare/newOrder`, {}));
      turns.list.push(await rate(`${base}/admin/get-orders-list/newOrder?page=1&limit=25&delay=1`, { authorization: token }));
    }
    const best = (values: number[]) => Math.max(...values);
    console.log(`bare handler: ${turns.bare.map((r) => r.toFixed(0)).join(", ")} requests/s; list endpoint: ${turns.list.map((r) => r.toFixed(0)).join(", ")} requests/s (${CONNECTIONS} connections, ${SECONDS} s a turn)`);
    console.log(`P5 list_vs_bare=${(best(turns.list) / best(turns.bare)).toFixed(2)} list_rps=${best(turns.list).toFixed(0)} bare_rps=${best(turns.bare).toFixed(0)}`);
  });

await main();
