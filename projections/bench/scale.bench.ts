import { openPostgresDriver, openSealedSqlEventStore, type SqlDriver } from "@etd/event-store";
import { createTestDatabase } from "@etd/infra/test-database";
import { ALL_PROJECTIONS } from "../src/all-projections.ts";
import { folderCounts, ordersList } from "../src/queue/index.ts";
import { orderDetails } from "../src/order-details/index.ts";
import { rebuildAll } from "./rebuild-all.ts";
import { generateLog } from "./workload.ts";

/*
 * P16 (issue 28, `npm run bench:scale`): ten million events on PostgreSQL, beside one million in
 * the same run. A benchmark, not a CI test: the 10,000,000-event log takes the better part of an
 * hour to write and rebuild here.
 *
 * For each size (P16_BASE, default 1,000,000, then P16_EVENTS, default 10,000,000), in a database
 * of its own that it drops before the next:
 *  1. writes the realistic log (workload.ts: demo orders living their lives through the real
 *     deciders, about seven events an order) through the sealed store, then VACUUM ANALYZE;
 *  2. the disk the log takes (the database's size less an empty one's), per million events;
 *  3. rebuilds every read model from the start of the log with the engine, as `projections
 *     rebuild all` does: events per second;
 *  4. samples, in turns, a primary-key lookup of one queue row, the queue page (New Order's page 1
 *     of 25 and the folder counts, the two queries the page makes) and the order page's query.
 *
 * The server's memory and checkpoint settings are printed first: a 10,000,000-event log (about
 * 14 GB) wants a server sized for it, not the test clusters' defaults (128 MB of shared buffers,
 * where each insert into the event ids' index reads and writes a page from outside the cache).
 *
 * The last line is `P16 rebuild_10m_vs_1m=<ratio of rebuild rates> page_vs_pk_10m=<ratio of p95s>
 * order_vs_pk_10m=<ratio of p95s> mb_per_million=<n>`; goals ≥ 0.9, ≤ 2 and ≤ 2.
 */

const BASE = Number(process.env.P16_BASE ?? 1_000_000);
const EVENTS = Number(process.env.P16_EVENTS ?? 10_000_000);
const SAMPLES = Number(process.env.P16_SAMPLES ?? 100);
const SEED = 2028;

const say = (line: string) => console.log(line);
const p95 = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
const time = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

interface Figures {
  readonly events: number;
  readonly rebuildPerSecond: number;
  readonly mbPerMillion: number;
  readonly pk: number;
  readonly page: number;
  readonly order: number;
}

const databaseBytes = async (driver: SqlDriver): Promise<number> => Number((await driver.query("select pg_database_size(current_database()) as n"))[0]!.n);

const measure = async (events: number): Promise<Figures> => {
  const database = await createTestDatabase();
  try {
    const empty = await (async () => {
      const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 1 });
      try {
        return await databaseBytes(driver);
      } finally {
        await driver.close();
      }
    })();
    let shown = 0;
    const log = await generateLog({
      connectionString: database.url,
      events,
      seed: SEED,
      synchronousCommit: false,
      onProgress: (written) => {
        if (written - shown >= 500_000) {
          shown = written;
          say(`  written ${written.toLocaleString("en-US")}`);
        }
      },
    });
    say(`${events.toLocaleString("en-US")}: log of ${log.events.toLocaleString("en-US")} events, ${log.orders.toLocaleString("en-US")} orders, written in ${log.seconds.toFixed(0)} s`);

    const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 4 });
    const store = await openSealedSqlEventStore(driver);
    try {
      await driver.query("vacuum analyze");
      const mbPerMillion = (await databaseBytes(driver)) - empty;
      const perMillion = mbPerMillion / 1024 / 1024 / (log.events / 1_000_000);
      say(`  the log takes ${(mbPerMillion / 1024 / 1024).toFixed(0)} MB: ${perMillion.toFixed(0)} MB per million events`);

      const rebuilt = await rebuildAll(driver, store);
      const rebuildPerSecond = log.events / rebuilt;
      say(`  rebuild of ${ALL_PROJECTIONS.length} read models: ${rebuilt.toFixed(0)} s = ${Math.round(rebuildPerSecond).toLocaleString("en-US")} events/s`);
      await driver.query("vacuum analyze");

      const ids = (await driver.query("select order_id from queue_orders order by random() limit 1000")).map((row) => String(row.order_id));
      const viewer = { today: new Date().toISOString().slice(0, 10), staffId: "bench" };
      const pk: number[] = [];
      const page: number[] = [];
      const order: number[] = [];
      for (let round = -10; round < SAMPLES; round++) {
        const orderId = ids[Math.abs(round) % ids.length]!;
        const lookup = await time(() => driver.query("select * from queue_orders where order_id = $1", [orderId]));
        const list = await time(() => Promise.all([ordersList(driver.query, { ...viewer, queueKey: "newOrder", page: 1, limit: 25 }), folderCounts(driver.query, viewer)]));
        const details = await time(() => orderDetails(driver.query, orderId));
        if (round < 0) continue;
        pk.push(lookup);
        page.push(list);
        order.push(details);
      }
      const figures = { events: log.events, rebuildPerSecond, mbPerMillion: perMillion, pk: p95(pk), page: p95(page), order: p95(order) };
      say(`  p95: primary-key lookup ${figures.pk.toFixed(2)} ms, queue page ${figures.page.toFixed(2)} ms, order page ${figures.order.toFixed(2)} ms`);
      return figures;
    } finally {
      await store.close();
      await driver.close();
    }
  } finally {
    await database.drop();
  }
};

const serverSettings = async (): Promise<string> => {
  const database = await createTestDatabase();
  const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 1 });
  try {
    const rows = await driver.query(
      `select name, current_setting(name) as value from pg_settings where name = any($1::text[]) order by name`,
      [["shared_buffers", "max_wal_size", "checkpoint_timeout", "effective_cache_size", "work_mem", "maintenance_work_mem"]],
    );
    return rows.map((row) => `${String(row.name)}=${String(row.value)}`).join(" ");
  } finally {
    await driver.close();
    await database.drop();
  }
};

const main = async () => {
  if (!(BASE > 0 && EVENTS > BASE)) throw new Error("P16_EVENTS must be more than P16_BASE, both positive");
  say(`server: ${(await serverSettings())}`);
  const base = await measure(BASE);
  const large = await measure(EVENTS);
  say(`P16 at ${BASE.toLocaleString("en-US")} events: page_vs_pk=${(base.page / base.pk).toFixed(2)} order_vs_pk=${(base.order / base.pk).toFixed(2)}`);
  say(
    `P16 rebuild_10m_vs_1m=${(large.rebuildPerSecond / base.rebuildPerSecond).toFixed(2)} page_vs_pk_10m=${(large.page / large.pk).toFixed(2)} order_vs_pk_10m=${(large.order / large.pk).toFixed(2)} mb_per_million=${large.mbPerMillion.toFixed(0)}`,
  );
};

await main();
