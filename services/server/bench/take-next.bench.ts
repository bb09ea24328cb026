import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SqlDriver } from "@etd/event-store";
import { createTestDatabase } from "@etd/infra/test-database";
import { generateDemoOrders } from "@etd/demo";
import { createApp } from "@etd/api/internal/app.ts";
import { addStaffAccount, isAccountChanged } from "@etd/api/internal/commands/staff-accounts.ts";
import { openRuntime } from "../src/runtime.ts";

/*
 * P15 (issue 27): Take next at 1,000,000 orders, P15_TAKERS (32) members pressing it at the same
 * moment, p95, against a plain "Assign to me" of one order p95 in the same run, on the same
 * database, by the same members in the same shape (32 at once). The last line is
 * `P15 take_next_vs_assign=<ratio of p95s> duplicates=<n>`; goal ratio ≤ 3, duplicates 0.
 *
 * Seeding: the real API in this process on a throwaway PostgreSQL database. P15_WAITING orders are
 * placed through intake and projected as production does: those are the orders taken and
 * assigned (each command reads its order's stream). The queue read model's live table is then
 * filled up to P15_ORDERS rows in SQL, copies of those rows under their own order ids: most
 * finished or held by a member, some waiting but due a month later, so the waiting orders the
 * takers reach are real ones while the index ranges and the claims' anti-join work at full size.
 *
 * Measuring: rounds alternate; a Take next round is every taker calling POST
 * /admin/take-next-order at once, an Assign round every taker calling PUT
 * /admin/assign-order-status at once, each on an order of its own from the least urgent end (so
 * the two never meet). Each call is timed on its own. `duplicates` counts orders handed to more
 * than one caller, from the answers and from the log.
 */

const ORDERS = Number(process.env.P15_ORDERS ?? 1_000_000);
const TAKERS = Number(process.env.P15_TAKERS ?? 32);
const ROUNDS = Number(process.env.P15_ROUNDS ?? 15);
const WARMUP_ROUNDS = 2;
/** Enough for every Take next and every Assign round, warm-up included. */
const WAITING = Number(process.env.P15_WAITING ?? TAKERS * (ROUNDS + WARMUP_ROUNDS) * 2 + 100);
const INTAKE_TOKEN = "benchmark-intake-token-0000000000";
const PASSWORD = "benchmark password 15";
const FIRST_ORDER_ID = 500_001;
const FIRST_COPY_ID = 20_000_001;

/** What the bench reads of an answer. */
interface Answer {
  readonly status: number;
  readonly body: { readonly message?: string; readonly jwtToken?: string; readonly data?: { readonly orderId?: string | null } | null };
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const quantile = (sorted: readonly number[], q: number) => sorted[Math.max(Math.ceil(sorted.length * q) - 1, 0)]!;
const p95 = (values: readonly number[]) => quantile([...values].sort((a, b) => a - b), 0.95);

/** Runs `work` over `items`, `concurrency` at a time. */
const eachLimited = async <T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) => {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
};

const liveQueueTable = async (driver: SqlDriver): Promise<string> => {
  const [live] = await driver.query("select version, build from projection_builds where name = 'queue' and status = 'live'");
  if (!live) throw new Error("the queue read model has no live build");
  return `queue_orders_v${String(live.version)}_b${String(live.build)}`;
};

/** Copies the real rows up to ORDERS rows: 90% finished, 6% held by a member, 4% waiting a month later. */
const fill = async (driver: SqlDriver, table: string, real: number) => {
  const copies = ORDERS - real;
  if (copies <= 0) return;
  const started = performance.now();
  const columns = (await driver.query("select column_name from information_schema.columns where table_name = $1 order by ordinal_position", [table])).map(
    (row) => String(row.column_name),
  );
  const changed: Record<string, string> = {
    order_id: `(${FIRST_COPY_ID} + g)::text`,
    process_status: "case when g % 100 < 90 then 'Completed' when g % 100 < 96 then 'Pending' else src.process_status end",
    assignee_id: "case when g % 100 < 96 then 'bench-filler-' || (g % 20)::text else null end",
    assignee_name: "case when g % 100 < 96 then 'Filler ' || (g % 20)::text else null end",
    search_text: `(${FIRST_COPY_ID} + g)::text`,
    ...(columns.includes("due_at") ? { due_at: "src.due_at + interval '30 days'" } : {}),
  };
  const select = columns.map((column) => changed[column] ?? `src.${column}`).join(", ");
  const CHUNK = 100_000;
  for (let from = 0; from < copies; from += CHUNK) {
    const to = Math.min(copies, from + CHUNK) - 1;
    await driver.query(
      `insert into ${table} (${columns.join(", ")})
       select ${select} from generate_series(${from}, ${to}) as g
       join lateral (select * from ${table} where order_id = (${FIRST_ORDER_ID} + g % ${real})::text) src on true`,
    );
  }
  await driver.query(`analyze ${table}`);
  console.log(`filled the queue read model to ${ORDERS.toLocaleString("en-US")} orders in ${seconds(started)}`);
};

const main = async () => {
  const began = performance.now();
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-p15-"));
  const runtime = await openRuntime({
    databaseUrl: database.url,
    dataDir,
    jwtSecret: "a-benchmark-secret-that-is-long-enough-0123",
    sessionTtlSeconds: 3600,
    intakeToken: INTAKE_TOKEN,
    maxUploadBytes: 1024 * 1024,
    maxConnections: 40,
  });
  const server: Server = createApp(runtime.deps).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  const call = async (method: string, apiPath: string, token?: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${base}${apiPath}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: token } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Answer["body"] };
  };

  try {
    // The takers, Team members signed in.
    const takers: string[] = [];
    for (let i = 0; i < TAKERS; i++) {
      const email = `taker${i + 1}@bench.local`;
      const added = await addStaffAccount(runtime.deps, { user: undefined, requestId: "bench", ip: "127.0.0.1" }, { name: `Taker ${i + 1}`, email, role: "Team", password: PASSWORD }, "bench");
      if (!isAccountChanged(added)) throw new Error(added.body.message);
      const login = await call("POST", "/admin/admin-login", undefined, { email, password: PASSWORD });
      takers.push(String(login.body.jwtToken));
    }

    // The orders that are taken and assigned: placed through intake, projected from the log.
    let started = performance.now();
    const today = new Date().toISOString().slice(0, 10);
    const bodies = generateDemoOrders({ seed: 15, count: WAITING, now: new Date() });
    await eachLimited([...bodies.entries()], 8, async ([i, body]) => {
      const placed = await call("POST", "/intake/orders", `Bearer ${INTAKE_TOKEN}`, { ...body, order_id: String(FIRST_ORDER_ID + i), processing_date: today });
      if (placed.status !== 200) throw new Error(`placing an order failed: ${JSON.stringify(placed.body)}`);
    });
    console.log(`placed ${WAITING} orders in ${seconds(started)}`);
    started = performance.now();
    await (await runtime.startProjectors()).ready;
    for (;;) {
      const [row] = await runtime.driver.query("select count(*)::int as n from queue_orders");
      if (Number(row?.n) >= WAITING) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.log(`projected in ${seconds(started)}`);
    await fill(runtime.driver, await liveQueueTable(runtime.driver), WAITING);

    // Assign to me takes from the least urgent end, Take next from the most urgent: they never meet.
    const leastUrgentFirst = (
      await runtime.driver.query(
        `select order_id from queue_orders where process_status in ('New', 'Priority') and assignee_id is null and order_id::bigint < ${FIRST_COPY_ID}
         order by due_at desc nulls first, created_at desc`,
      )
    ).map((row) => String(row.order_id));

    const taken: string[] = [];
    const takeTimes: number[] = [];
    const assignTimes: number[] = [];
    const timed = async (work: () => Promise<Answer>) => {
      const t0 = performance.now();
      const answer = await work();
      return { ms: performance.now() - t0, answer };
    };
    for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
      const measured = round >= WARMUP_ROUNDS;
      const takes = await Promise.all(takers.map((token) => timed(() => call("POST", "/admin/take-next-order", token))));
      for (const { ms, answer } of takes) {
        if (answer.status !== 200 || !answer.body.data?.orderId) throw new Error(`Take next failed: ${JSON.stringify(answer.body)}`);
        taken.push(String(answer.body.data.orderId));
        if (measured) takeTimes.push(ms);
      }
      const assigns = await Promise.all(
        takers.map((token) => timed(() => call("PUT", "/admin/assign-order-status", token, { orderId: [leastUrgentFirst.shift()!] }))),
      );
      for (const { ms, answer } of assigns) {
        if (answer.status !== 200) throw new Error(`Assign to me failed: ${JSON.stringify(answer.body)}`);
        if (measured) assignTimes.push(ms);
      }
    }

    const handedTwice = taken.length - new Set(taken).size;
    const [logged] = await runtime.driver.query(
      `select count(*)::int as n from (select stream_id from es_events where type = 'OrderAssigned' group by stream_id having count(*) > 1) twice`,
    );
    const duplicates = handedTwice + Number(logged?.n ?? 0);
    const take = p95(takeTimes);
    const assign = p95(assignTimes);
    console.log(
      `P15 at ${ORDERS.toLocaleString("en-US")} orders, ${TAKERS} takers, ${ROUNDS} rounds: take_next_p95_ms=${take.toFixed(1)} assign_p95_ms=${assign.toFixed(1)} (whole run ${seconds(began)})`,
    );
    console.log(`P15 take_next_vs_assign=${(take / assign).toFixed(2)} duplicates=${duplicates}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

await main();
