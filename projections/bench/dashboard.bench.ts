import * as Result from "effect/Result";
import { openPostgresDriver, type SqlDriver } from "@etd/event-store";
import { createTestDatabase } from "@etd/infra/test-database";
import { decodeEvent } from "@etd/events";
import type { ProjectedEvent } from "../src/engine/projection.ts";
import { dashboardDay, dashboardProjection, dashboardReader } from "../src/dashboard/index.ts";
import { migrateRegistry } from "../src/engine/registry.ts";
import { planLog } from "./plan-log.ts";

/*
 * P14 (issue 27): the dashboard's queries at 1,000,000 orders, p95, against a primary-key lookup
 * of one order row p95 in the same run on the same database. The last line is
 * `P14 dashboard_vs_pk=<ratio> compute_vs_pk=<ratio> dashboard_p95_ms=<ms>`; goal ≤ 2 for the first.
 *
 * `dashboard_vs_pk` is the dashboard as the API reads it (ADR 0045): each scope's figures read once
 * at the read model's position, then answered again after one lookup of that position; every
 * scope was read once before the samples. `compute_vs_pk` is the whole statement read afresh
 * (dashboardDay), what the first reader after each change pays.
 *
 * The log is the workload generator's (plan-log.ts: demo orders living their lives through the
 * real deciders, the team's streams), fed to the dashboard projection's own apply in batches (the
 * event store is not the subject here), P14_ORDERS orders (default 1,000,000) with their whole
 * lives, about 5.2 events each. The line before the figures says how many events that made.
 */

const ORDERS = Number(process.env.P14_ORDERS ?? 1_000_000);
const SAMPLES = Number(process.env.P14_SAMPLES ?? 60);
const NOW = new Date("2025-06-15T12:00:00.000Z");
const BATCH = 5000;

const p95 = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
const time = async (work: () => Promise<unknown>): Promise<number> => {
  const started = performance.now();
  await work();
  return performance.now() - started;
};

const fill = async (driver: SqlDriver): Promise<string[]> => {
  const table = (base: string) => `${base}_bench`;
  await driver.transaction(async (query) => {
    await dashboardProjection.migrate(query, table);
    for (const base of dashboardProjection.tables) await query(`create view ${base} as select * from ${table(base)}`);
  });
  const started = performance.now();
  const orderIds: string[] = [];
  const staffIds = new Set<string>();
  let batch: ProjectedEvent[] = [];
  let sequence = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const events = batch;
    batch = [];
    await driver.transaction((query) => dashboardProjection.apply(events, query, table));
  };
  // The plan's budget is set out of reach: the log ends after the last order's whole life.
  for (const work of planLog({ events: Number.MAX_SAFE_INTEGER, seed: 14, now: NOW })) {
    if (work.order && orderIds.length === ORDERS) break;
    if (work.order) orderIds.push(work.streamId.slice("order-".length));
    for (const append of work.appends) {
      for (const raw of append.events) {
        sequence++;
        const decoded = decodeEvent(raw);
        if (Result.isFailure(decoded)) throw new Error(`event ${raw.eventId} does not decode: ${decoded.failure.message}`);
        const event = decoded.success;
        if (event.type === "StaffMemberAdded") staffIds.add(event.data.staffId);
        const at = new Date(event.metadata.occurredAt);
        batch.push({ event, eventId: raw.eventId, streamId: work.streamId, streamPosition: BigInt(sequence), position: { tx: BigInt(sequence), seq: BigInt(sequence) }, recordedAt: at });
      }
    }
    if (batch.length >= BATCH) await flush();
    if (orderIds.length % 50_000 === 0 && work.order) console.log(`  ${orderIds.length} orders projected (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  await flush();
  // The reader keys its figures on the live build's checkpoint, as the projector keeps it.
  await migrateRegistry(driver);
  await driver.query("insert into projection_builds (name, build, version, status, checkpoint_tx, checkpoint_seq) values ($1, 1, $2, 'live', $3, $3)", [
    dashboardProjection.name,
    dashboardProjection.version,
    sequence,
  ]);
  await driver.query("analyze");
  console.log(`${orderIds.length} orders (${sequence} events) projected in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return [...staffIds];
};

const main = async () => {
  const database = await createTestDatabase();
  const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 2 });
  try {
    const staffIds = await fill(driver);
    const ids = (await driver.query("select order_id from dashboard_orders order by random() limit 1000")).map((row) => String(row.order_id));
    const reader = dashboardReader(driver.query, 60_000);
    const scopes: (string | undefined)[] = [undefined, ...staffIds];
    for (const staffId of scopes) await reader.read({ now: NOW, ...(staffId === undefined ? {} : { staffId }) });
    const pk: number[] = [];
    const read: number[] = [];
    const team: number[] = [];
    const own: number[] = [];
    for (let round = -5; round < SAMPLES; round++) {
      const staffId = staffIds[Math.abs(round) % staffIds.length]!;
      const lookup = await time(() => driver.query("select * from dashboard_orders where order_id = $1", [ids[Math.abs(round) % ids.length]]));
      const answered = await time(() => reader.read({ now: NOW, ...(round % 2 === 0 ? {} : { staffId }) }));
      const all = await time(() => dashboardDay(driver.query, { now: NOW }));
      const mine = await time(() => dashboardDay(driver.query, { now: NOW, staffId }));
      if (round < 0) continue;
      pk.push(lookup);
      read.push(answered);
      team.push(all);
      own.push(mine);
    }
    const pkP95 = p95(pk);
    const readP95 = p95(read);
    // Read afresh: the whole statement (dashboardDay: its figures from the tallies) against one lookup.
    const computeP95 = Math.max(p95(team), p95(own));
    console.log(
      `primary-key lookup p95 ${pkP95.toFixed(2)} ms; dashboard as read p95 ${readP95.toFixed(2)} ms; ` +
        `read afresh: team p95 ${p95(team).toFixed(2)} ms, own p95 ${p95(own).toFixed(2)} ms`,
    );
    console.log(`P14 dashboard_vs_pk=${(readP95 / pkP95).toFixed(2)} compute_vs_pk=${(computeP95 / pkP95).toFixed(2)} dashboard_p95_ms=${readP95.toFixed(2)}`);
  } finally {
    await driver.close();
    await database.drop();
  }
};

await main();
