import { openPostgresDriver, openSealedSqlEventStore, type SqlDriver } from "@etd/event-store";
import { createTestDatabase } from "@etd/infra/test-database";
import { ALL_PROJECTIONS } from "../src/all-projections.ts";
import { rebuildAll } from "./rebuild-all.ts";
import { generateLog } from "./workload.ts";

/*
 * P2 (`npm run bench:projections`): how fast every read model rebuilds from the log, measured
 * against the speed of just reading that log.
 *
 * On the local PostgreSQL (TEST_DATABASE_URL), in a database of its own that it drops at the end:
 *  1. writes a realistic log of P2_EVENTS events (default 1,000,000; workload.ts) through the
 *     sealed store, then VACUUM ANALYZE, as autovacuum would leave a table that old;
 *  2. the baseline: reads the whole log through the same sealed store's subscribe (decrypting
 *     personal data), with a handler that does nothing, batches of 1000 as the engine reads;
 *  3. rebuilds every projection in ALL_PROJECTIONS from the start of the log with the engine
 *     (startProjector, as `projections rebuild all` does), until each is live at the head;
 *  4. reads the log again; the baseline is the faster of the two reads, so the ratio is never
 *     flattered by a cold first read.
 *
 * The last line is `P2 rebuild_vs_scan=<ratio> rebuild_per_s=<n>`, where
 * rebuild_vs_scan = scan_time / rebuild_time: 1 would mean rebuilding costs no more than reading
 * the log; higher is better, and the goal is at least 0.25 (a rebuild within 4x a bare read).
 * rebuild_per_s is log events per second of the rebuild (each applied to every projection).
 */

const EVENTS = Number(process.env.P2_EVENTS ?? 1_000_000);
const SEED = Number(process.env.P2_SEED ?? 2026);
/** As the CLI opens it: the engine's pool size is part of what is measured. */
const POOL = 4;

const say = (line: string) => console.log(line);
const seconds = (from: number) => (performance.now() - from) / 1000;
const rate = (n: number, s: number) => Math.round(n / s).toLocaleString("en-US");

const withStore = async <T>(url: string, work: (driver: SqlDriver, store: Awaited<ReturnType<typeof openSealedSqlEventStore>>) => Promise<T>): Promise<T> => {
  // A fresh pool and store each time: no key cached by an earlier pass.
  const driver = await openPostgresDriver({ connectionString: url, maxConnections: POOL });
  const store = await openSealedSqlEventStore(driver);
  try {
    return await work(driver, store);
  } finally {
    await store.close();
    await driver.close();
  }
};

const scanLog = (url: string): Promise<{ events: number; seconds: number }> =>
  withStore(url, async (_driver, store) => {
    const started = performance.now();
    let events = 0;
    await new Promise<void>((resolve, reject) => {
      const subscription = store.subscribe({
        batchSize: 1000,
        handle: async (batch) => {
          events += batch.length;
        },
        onCaughtUp: () => void subscription.stop().then(resolve, reject),
        onError: reject,
      });
    });
    return { events, seconds: seconds(started) };
  });

const rebuildEvery = (url: string): Promise<{ seconds: number; builds: string[] }> =>
  withStore(url, async (driver, store) => {
    const took = await rebuildAll(driver, store);
    const rows = await driver.query(
      "select name, build, events_applied, extract(epoch from promoted_at - created_at)::float8 as took from projection_builds where status = 'live' order by name",
    );
    return { seconds: took, builds: rows.map((r) => `${String(r.name)}: build ${String(r.build)}, ${String(r.events_applied)} events, live after ${Number(r.took).toFixed(1)} s`) };
  });

const main = async () => {
  if (!Number.isInteger(EVENTS) || EVENTS <= 0) throw new Error(`P2_EVENTS must be a positive whole number, got ${String(process.env.P2_EVENTS)}`);
  const database = await createTestDatabase();
  try {
    say(`P2: ${EVENTS.toLocaleString("en-US")} events, seed ${SEED}, projections: ${ALL_PROJECTIONS.map((p) => `${p.name} v${p.version}`).join(", ") || "(none)"}`);
    if (ALL_PROJECTIONS.length === 0) say("WARNING: ALL_PROJECTIONS is empty: the rebuild has nothing to do and the ratio means nothing");

    let shown = 0;
    const log = await generateLog({
      connectionString: database.url,
      events: EVENTS,
      seed: SEED,
      synchronousCommit: false,
      onProgress: (written) => {
        if (written - shown >= 100_000) {
          shown = written;
          say(`  written ${written.toLocaleString("en-US")}`);
        }
      },
    });
    say(`log: ${log.events.toLocaleString("en-US")} events, ${log.orders.toLocaleString("en-US")} orders (${log.erasedOrders} erased), in ${log.seconds.toFixed(1)} s = ${rate(log.events, log.seconds)} events/s`);
    await withStore(database.url, async (driver) => {
      const vacuum = performance.now();
      await driver.query("vacuum analyze es_events");
      await driver.query("vacuum analyze es_stream_keys");
      const [size] = await driver.query("select pg_size_pretty(pg_total_relation_size('es_events')) as size");
      say(`vacuum analyze: ${seconds(vacuum).toFixed(1)} s; es_events takes ${String(size!.size)}`);
    });

    const first = await scanLog(database.url);
    say(`scan 1 (no-op handler): ${first.events.toLocaleString("en-US")} events in ${first.seconds.toFixed(1)} s = ${rate(first.events, first.seconds)} events/s`);
    if (first.events !== log.events) throw new Error(`the scan read ${first.events} events of ${log.events}`);

    const rebuild = await rebuildEvery(database.url);
    say(`rebuild of ${ALL_PROJECTIONS.length} projections: ${rebuild.seconds.toFixed(1)} s = ${rate(log.events, rebuild.seconds)} events/s (${rate(log.events * ALL_PROJECTIONS.length, rebuild.seconds)} event applications/s)`);
    for (const line of rebuild.builds) say(`  ${line}`);

    const second = await scanLog(database.url);
    say(`scan 2 (no-op handler): ${second.events.toLocaleString("en-US")} events in ${second.seconds.toFixed(1)} s = ${rate(second.events, second.seconds)} events/s`);

    const scan = Math.min(first.seconds, second.seconds);
    const ratio = scan / rebuild.seconds;
    say(`rebuild_vs_scan = scan time / rebuild time = ${scan.toFixed(1)} / ${rebuild.seconds.toFixed(1)}: higher is better, the goal is >= 0.25`);
    say(`P2 rebuild_vs_scan=${ratio.toFixed(3)} rebuild_per_s=${Math.round(log.events / rebuild.seconds)}`);
  } finally {
    await database.drop();
  }
};

await main();
