/**
 * Benchmark P1: appends per second with 32 concurrent writers, one event per command appended
 * at the exact expected version, on the local PostgreSQL. Three contenders, run one after the
 * other, each on its own fresh database and pool of the same size:
 *   ours    createPostgresEventStore (es_append)
 *   emmett  @event-driven-io/emmett-postgresql getPostgreSQLEventStore().appendToStream
 *   raw     a plain INSERT of the same row into a table with no index: the ceiling
 * Each measurement runs in a child process of its own (Emmett's driver sets pg's type parsers
 * process-wide; a fresh heap each), with a warm-up, then a fixed window. Each round rotates the
 * order (ours emmett raw, emmett raw ours, raw ours emmett) so that none always runs first or
 * last, and the table shows each contender's median over the rounds: on this 2-core VM one
 * window varies by about ±10 %, and three shorter rounds beat two long ones for a ~85 s run.
 *
 *   npm run bench:append          BENCH_SECONDS (7) BENCH_WARMUP_SECONDS (1.5) BENCH_ROUNDS (3)
 *                                 BENCH_WRITERS (32) BENCH_POOL (32) BENCH_EVENTS_PER_STREAM (10)
 *                                 BENCH_CONTENDERS (ours,emmett,raw) TEST_DATABASE_URL
 *
 * The last line is `P1 ours_vs_emmett=<ratio> ours_vs_raw=<ratio> ours_per_s=<n>`.
 */
import { createTestDatabase, SERVER_URL, type TestDatabase } from "@etd/infra/test-database";
import { spawn, type ChildProcess } from "node:child_process";
import pg from "pg";
import { CONTENDERS, isContenderName, type ContenderName } from "./contenders.ts";
import { payloadBytes, runLoad, type LoadResult } from "./workload.ts";

const positive = (name: string, fallback: number): number => {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${text}"`);
  return value;
};

const settings = {
  seconds: positive("BENCH_SECONDS", 7),
  warmupSeconds: positive("BENCH_WARMUP_SECONDS", 1.5),
  rounds: Math.round(positive("BENCH_ROUNDS", 3)),
  writers: Math.round(positive("BENCH_WRITERS", 32)),
  pool: Math.round(positive("BENCH_POOL", 32)),
  eventsPerStream: Math.round(positive("BENCH_EVENTS_PER_STREAM", 10)),
};

interface Measurement extends LoadResult {
  readonly contender: ContenderName;
  /** Rows in the contender's table afterwards: must equal `total`. */
  readonly rows: number;
  /** As the benchmark's sessions saw it on the fresh database. */
  readonly synchronousCommit: string;
}

const RESULT = "P1-RESULT ";

/** Child process: one contender, one fresh database (made and dropped by the parent). */
const measure = async (contender: ContenderName, url: string): Promise<void> => {
  const open = await CONTENDERS[contender](url, settings.pool);
  let result: LoadResult;
  try {
    result = await runLoad(open.append, {
      writers: settings.writers,
      warmupMs: settings.warmupSeconds * 1000,
      measureMs: settings.seconds * 1000,
      eventsPerStream: settings.eventsPerStream,
    });
  } finally {
    await open.close();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const count = await client.query<{ n: string }>(`select count(*)::text as n from ${open.table}`);
    const sync = await client.query<{ synchronous_commit: string }>("show synchronous_commit");
    const measurement: Measurement = {
      contender,
      ...result,
      rows: Number(count.rows[0]?.n),
      synchronousCommit: sync.rows[0]?.synchronous_commit ?? "?",
    };
    process.stdout.write(`${RESULT}${JSON.stringify(measurement)}\n`);
  } finally {
    await client.end();
  }
};

const running = new Set<ChildProcess>();
const databases = new Set<TestDatabase>();

const runChild = (contender: ContenderName, url: string): Promise<Measurement> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [import.meta.filename, "--measure", contender, url], {
      stdio: ["ignore", "pipe", "inherit"],
      env: process.env,
    });
    running.add(child);
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      running.delete(child);
      const line = output.split("\n").find((l) => l.startsWith(RESULT));
      if (code !== 0 || !line) {
        reject(new Error(`${contender}: measurement failed (exit ${code})\n${output}`));
        return;
      }
      resolve(JSON.parse(line.slice(RESULT.length)) as Measurement);
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `drop database … with (force)` refuses, for a role that is not superuser, while an autovacuum
 * worker (which every contender's inserts wake) is in the database: SQLSTATE 42501. A plain
 * `drop database` cancels autovacuum itself, so fall back to it, retrying while anything else
 * is still connected.
 */
const dropDatabase = async (database: TestDatabase): Promise<void> => {
  const name = new URL(database.url).pathname.slice(1);
  for (let attempt = 1; ; attempt++) {
    try {
      await database.drop();
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "42501" || attempt >= 20) throw error;
    }
    const client = new pg.Client({ connectionString: SERVER_URL });
    await client.connect();
    try {
      await client.query(`drop database if exists "${name}"`);
      return;
    } catch {
      await sleep(500);
    } finally {
      await client.end();
    }
  }
};

const measureOnFreshDatabase = async (contender: ContenderName): Promise<Measurement> => {
  const database = await createTestDatabase();
  databases.add(database);
  try {
    const result = await runChild(contender, database.url);
    if (result.rows !== result.total) {
      throw new Error(`${contender}: ${result.total} appends succeeded but ${result.rows} rows are stored`);
    }
    return result;
  } finally {
    databases.delete(database);
    await dropDatabase(database);
  }
};

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const serverSettings = async (): Promise<Map<string, string>> => {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; setting: string }>(
      `select name, current_setting(name) as setting from pg_settings
        where name in ('server_version', 'synchronous_commit', 'fsync', 'wal_sync_method', 'full_page_writes',
                       'commit_delay', 'shared_buffers', 'max_connections')`,
    );
    return new Map(rows.map((r) => [r.name, r.setting]));
  } finally {
    await client.end();
  }
};

const main = async (): Promise<void> => {
  const chosen = (process.env.BENCH_CONTENDERS ?? "ours,emmett,raw").split(",").map((s) => s.trim());
  const contenders = chosen.filter(isContenderName);
  if (contenders.length !== chosen.length || contenders.length === 0) {
    throw new Error(`BENCH_CONTENDERS: expected names among ${Object.keys(CONTENDERS).join(", ")}`);
  }
  const server = await serverSettings();
  const durable = server.get("synchronous_commit") === "on" && server.get("fsync") === "on";
  console.log(
    `P1 append benchmark: ${settings.writers} writers, pool ${settings.pool} connections each, 1 event per append ` +
      `at the exact expected version, ${settings.eventsPerStream} events per order stream, payload ${payloadBytes()} bytes ` +
      `(data + metadata JSON)`,
  );
  console.log(
    `warm-up ${settings.warmupSeconds} s, measured ${settings.seconds} s, ${settings.rounds} round(s), fresh database each; ` +
      `PostgreSQL ${server.get("server_version")}, shared_buffers ${server.get("shared_buffers")}`,
  );
  console.log(
    `durability ${durable ? "ON" : "NOT FULL"} for all three: synchronous_commit=${server.get("synchronous_commit")} ` +
      `fsync=${server.get("fsync")} wal_sync_method=${server.get("wal_sync_method")} ` +
      `full_page_writes=${server.get("full_page_writes")} (the benchmark changes none of them)`,
  );

  const results = new Map<ContenderName, Measurement[]>(contenders.map((c) => [c, []]));
  for (let round = 0; round < settings.rounds; round++) {
    const shift = round % contenders.length;
    const order = [...contenders.slice(shift), ...contenders.slice(0, shift)];
    for (const contender of order) {
      const m = await measureOnFreshDatabase(contender);
      if (m.synchronousCommit !== "on") console.log(`  WARNING: ${contender} ran with synchronous_commit=${m.synchronousCommit}`);
      console.log(
        `  round ${round + 1} ${contender.padEnd(6)} ${Math.round(m.perSecond).toString().padStart(6)} appends/s ` +
          `p50 ${m.p50Ms.toFixed(1)} ms p95 ${m.p95Ms.toFixed(1)} ms p99 ${m.p99Ms.toFixed(1)} ms (${m.rows} rows checked)`,
      );
      results.get(contender)!.push(m);
    }
  }

  const summary = new Map(
    [...results].map(([contender, ms]) => [
      contender,
      {
        perSecond: median(ms.map((m) => m.perSecond)),
        p50: median(ms.map((m) => m.p50Ms)),
        p95: median(ms.map((m) => m.p95Ms)),
        rounds: ms.map((m) => Math.round(m.perSecond)).join(" / "),
      },
    ]),
  );
  console.log("");
  console.log("medians over the rounds (latency: median of each round's percentile)");
  console.log(`${"contender".padEnd(10)} ${"appends/s".padStart(10)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)}   rounds`);
  for (const [contender, s] of summary) {
    console.log(
      `${contender.padEnd(10)} ${Math.round(s.perSecond).toString().padStart(10)} ${s.p50.toFixed(1).padStart(8)} ` +
        `${s.p95.toFixed(1).padStart(8)}   ${s.rounds}`,
    );
  }
  const ours = summary.get("ours")?.perSecond;
  const emmett = summary.get("emmett")?.perSecond;
  const raw = summary.get("raw")?.perSecond;
  if (ours === undefined || emmett === undefined || raw === undefined) {
    console.log("(the P1 line needs all three contenders)");
    return;
  }
  console.log(`goals: ours_vs_emmett >= 1.5, ours_vs_raw >= 0.5`);
  console.log(`P1 ours_vs_emmett=${(ours / emmett).toFixed(2)} ours_vs_raw=${(ours / raw).toFixed(2)} ours_per_s=${Math.round(ours)}`);
};

const cleanUp = async (): Promise<void> => {
  for (const child of running) child.kill("SIGTERM");
  await Promise.allSettled([...databases].map(dropDatabase));
};

if (process.argv[2] === "--measure") {
  const [contender, url] = process.argv.slice(3);
  if (!contender || !isContenderName(contender) || !url) throw new Error("usage: append.bench.ts --measure <contender> <url>");
  await measure(contender, url);
} else {
  process.once("SIGINT", () => {
    void cleanUp().finally(() => process.exit(130));
  });
  try {
    await main();
  } catch (error) {
    await cleanUp();
    console.error(error);
    process.exitCode = 1;
  }
}
