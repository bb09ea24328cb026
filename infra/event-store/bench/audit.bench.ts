/**
 * Benchmark P13 (issue 14): what tamper evidence costs.
 *
 * - verify_vs_sha256: events per second of the log's verification (`verifyStoredChain`: read in
 *   log order from PostgreSQL, both chains recomputed, three SHA-256 per event), against Node's
 *   SHA-256 over the same bytes (each event's digest input, already in memory, hashed once) in the
 *   same run. Goal >= 0.5. The reading alone is printed too: it is most of the difference.
 * - append_overhead: P1's append rate (32 writers) with the chains (stream hashes in es_append,
 *   the sealer running every 200 ms) against the same store without them, measured by P1's own
 *   harness (`append.bench.ts`, contenders ours and unchained) in the same run. Goal >= 0.9.
 *
 *   npm run bench:audit     BENCH_AUDIT_STREAMS (3000) x 100 events; BENCH_AUDIT_ROUNDS (3);
 *                           the append part takes P1's variables (BENCH_SECONDS, BENCH_ROUNDS …)
 *
 * The last line is `P13 verify_vs_sha256=<ratio> append_overhead=<ratio>`.
 */
import { hash } from "node:crypto";
import { spawn } from "node:child_process";
import { createTestDatabase } from "@etd/infra/test-database";
import { digestInput, type ChainedEvent } from "../src/chain/event-chain.ts";
import { readChain, sealLog, verifyStoredChain } from "../src/chain/stored-chain.ts";
import { openPostgresDriver } from "../src/postgres/postgres-event-store.ts";
import { createSqlEventStore } from "../src/sql/create-sql-event-store.ts";
import { fillLog } from "../test/support/fill-log.ts";

const streams = Number(process.env.BENCH_AUDIT_STREAMS ?? 3000);
const rounds = Number(process.env.BENCH_AUDIT_ROUNDS ?? 3);

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const timed = async (work: () => unknown): Promise<number> => {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
};

const verification = async () => {
  const database = await createTestDatabase();
  const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 2 });
  try {
    await createSqlEventStore(driver);
    await fillLog(driver, streams, 100);
    await sealLog(driver);
    await driver.query("vacuum analyze es_events");
    await driver.query("vacuum analyze es_chain");
    const events: ChainedEvent[] = [];
    for await (const event of readChain(driver)) events.push(event);
    const n = events.length;
    const bytes = events.reduce((sum, e) => sum + Buffer.byteLength(digestInput(e)), 0);
    console.log(`verification: ${n} events in ${streams} streams, ${Math.round(bytes / n)} bytes hashed per event`);
    const hashing: number[] = [];
    const reading: number[] = [];
    const verifying: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      hashing.push(await timed(() => {
        for (const event of events) hash("sha256", digestInput(event), "buffer");
      }));
      reading.push(await timed(async () => {
        for await (const _ of readChain(driver)) void _;
      }));
      verifying.push(await timed(async () => {
        const report = await verifyStoredChain(driver);
        if (report.firstBreak || report.checked !== n) throw new Error(`the log did not verify: ${JSON.stringify(report)}`);
      }));
      console.log(
        `  round ${round}: sha256 in memory ${Math.round(n / hashing.at(-1)!)} events/s, reading ${Math.round(n / reading.at(-1)!)} events/s, ` +
          `verify ${Math.round(n / verifying.at(-1)!)} events/s`,
      );
    }
    return { sha256: n / median(hashing), read: n / median(reading), verify: n / median(verifying) };
  } finally {
    await driver.close();
    await database.drop();
  }
};

const appendRates = (): Promise<{ ours: number; unchained: number }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [new URL("./append.bench.ts", import.meta.url).pathname], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, BENCH_CONTENDERS: "ours,unchained" },
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const rate = (name: string) => Number(new RegExp(`^${name}\\s+(\\d+)`, "m").exec(output)?.[1]);
      const result = { ours: rate("ours"), unchained: rate("unchained") };
      if (code !== 0 || !result.ours || !result.unchained) reject(new Error(`the append benchmark failed (exit ${code})`));
      else resolve(result);
    });
  });

const verify = await verification();
console.log(
  `verification medians: sha256 ${Math.round(verify.sha256)}/s, reading ${Math.round(verify.read)}/s, verify ${Math.round(verify.verify)}/s ` +
    `(verify_vs_reading=${(verify.verify / verify.read).toFixed(2)})`,
);
console.log("");
console.log("appends with the chains (ours: stream hashes + sealer) and without (unchained), P1's harness:");
const appends = await appendRates();
console.log("goals: verify_vs_sha256 >= 0.5, append_overhead >= 0.9");
console.log(`P13 verify_vs_sha256=${(verify.verify / verify.sha256).toFixed(2)} append_overhead=${(appends.ours / appends.unchained).toFixed(2)}`);
