import { randomUUID } from "node:crypto";
import { openPostgresDriver } from "@etd/event-store";
import { remarkText } from "@etd/events";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Projection } from "../../src/engine/projection.ts";
import { startProjector } from "../../src/engine/projector.ts";
import { migrateRegistry, startBuild, tableOf } from "../../src/engine/registry.ts";
import { waitForPosition } from "../../src/engine/build-worker.ts";
import { openTestLog, type TestLog } from "../support/test-log.ts";

/*
 * One projector process reads the log once and feeds every projection from it (ADR 0005), each
 * in its own transaction with its own checkpoint. What must still hold: every projection gets
 * every event exactly once, and one projection that breaks stops alone, with its error reported,
 * while the others keep following the log.
 */

const available = await postgresAvailable();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keeps every event id it is given; the primary key refuses one given twice. It can break on a
 * remark, or take its time over each batch (`pace.ms`), to hold a moment open.
 */
const keeper = (name: string, breaksOn?: string, pace = { ms: 0 }): Projection => ({
  name,
  version: 1,
  tables: [`${name}_seen`],
  migrate: async (query, table) => {
    await query(`create table ${table(`${name}_seen`)} (event_id uuid primary key)`);
  },
  apply: async (events, query, table) => {
    if (pace.ms > 0) await sleep(pace.ms);
    for (const e of events) {
      if (breaksOn !== undefined && e.event.type === "RemarkAdded" && remarkText(e.event.data) === breaksOn) throw new Error(`${name} cannot take "${breaksOn}"`);
    }
    await query(`insert into ${table(`${name}_seen`)} select unnest($1::uuid[])`, [events.map((e) => e.eventId)]);
  },
});

const remark = (orderId: string, text: string) => ({
  eventId: randomUUID(),
  type: "RemarkAdded",
  schemaVersion: 2,
  data: { orderId, remark: text, remarkerName: "Tessa Cruz", whatsapp: false, telephone: false, statusRefund: false, voided: false, chargeBack: false, reportError: false },
  metadata: { actor: { kind: "system", name: "test" }, correlationId: randomUUID(), occurredAt: new Date().toISOString() },
});

describe.skipIf(!available)("the shared log reader", () => {
  let shared: TestLog;

  beforeAll(async () => {
    shared = await openTestLog({ pollIntervalMs: 200 });
  });

  afterAll(async () => {
    await shared?.close();
  });

  it("gives every projection every event once; one that breaks stops alone and says why, the others carry on", async () => {
    const { driver, store } = shared;
    const seen = async (name: string) => Number((await driver.query(`select count(*)::int as n from ${name}_seen`))[0]!.n);
    for (let n = 0; n < 120; n++) await store.append(`order-${400000 + (n % 9)}`, [remark(String(400000 + (n % 9)), `note ${n}`)], { expectedVersion: "any" });
    const messages: string[] = [];
    const projector = await startProjector({
      driver,
      store,
      projections: [keeper("alpha"), keeper("beta", "note 150"), keeper("gamma")],
      batchSize: 25,
      scanIntervalMs: 100,
      onEvent: (message) => messages.push(message),
    });
    try {
      await projector.ready;
      expect([await seen("alpha"), await seen("beta"), await seen("gamma")]).toEqual([120, 120, 120]);

      let last = { tx: 0n, seq: 0n };
      for (let n = 120; n < 200; n++) last = (await store.append(`order-${400000 + (n % 9)}`, [remark(String(400000 + (n % 9)), `note ${n}`)], { expectedVersion: "any" })).position;
      await expect(projector.failure).rejects.toThrow('beta cannot take "note 150"');
      expect(await waitForPosition(driver, last, ["alpha", "gamma"], 10_000)).toBe(true);
      expect([await seen("alpha"), await seen("gamma")]).toEqual([200, 200]);
      // beta kept what it had committed, up to the batch that broke it, and took nothing after.
      const beta = await seen("beta");
      expect(beta).toBeGreaterThanOrEqual(120);
      expect(beta).toBeLessThan(151);
      expect(messages.some((m) => m.startsWith("beta: build 1 stopped:") && m.includes("note 150"))).toBe(true);
    } finally {
      await projector.stop();
    }
    const leases = await driver.query("select name, lease_owner from projection_builds order by name");
    expect(leases.map((r) => r.lease_owner)).toEqual([null, null, null]);
  }, 30_000);

  it("a build that caught up alone and joins while the reader is being replaced is still fed afterwards", async () => {
    const { driver: own, store: log, close } = await openTestLog({ pollIntervalMs: 100 });
    const pace = { ms: 0 };
    const slow = keeper("slow", undefined, pace);
    const other = keeper("other");
    const projector = { stop: async () => {} };
    try {
      let n = 0;
      const append = async () => (await log.append("order-410001", [remark("410001", `note ${n++}`)], { expectedVersion: "any" })).position;
      for (let i = 0; i < 10; i++) await append();
      // "other" is held by another process for now: this one starts without it.
      await migrateRegistry(own);
      await startBuild(own, "other", 1, (query, build) => other.migrate(query, (base) => tableOf(build, base)));
      await own.query("update projection_builds set lease_owner = 'elsewhere', lease_until = now() + interval '1 hour' where name = 'other'");
      const running = await startProjector({ driver: own, store: log, projections: [slow, other], owner: "here", leaseMs: 600, scanIntervalMs: 100 });
      projector.stop = () => running.stop();
      const liveBuild = async () => Number((await own.query("select build from projection_builds where name = 'slow' and status = 'live'"))[0]?.build ?? 0);
      while ((await liveBuild()) === 0) await sleep(50);
      // A rebuild of "slow" catches up alone and takes over; the retired build leaves the reader empty.
      const rebuild = await startBuild(own, "slow", 1, (query, build) => slow.migrate(query, (base) => tableOf(build, base)));
      while ((await liveBuild()) !== rebuild.build) await sleep(50);
      await sleep(800);
      // The next event wakes the reader (which stops the rebuild's own subscription to take it in,
      // slowly) while "other" becomes free, so the empty reader is replaced at that moment.
      pace.ms = 1500;
      await append();
      await sleep(300);
      await own.query("update projection_builds set lease_owner = null, lease_until = null where name = 'other'");
      // This process takes "other" and, finding its reader feeding nobody, replaces it.
      while ((await own.query("select lease_owner from projection_builds where name = 'other'"))[0]!.lease_owner !== "here") await sleep(20);
      await sleep(2500);
      pace.ms = 0;
      let head = await append();
      for (let i = 0; i < 9; i++) head = await append();
      expect(await waitForPosition(own, head, ["slow", "other"], 10_000)).toBe(true);
      const [row] = await own.query("select events_applied::int as applied from projection_builds where name = 'slow' and build = $1", [rebuild.build]);
      expect(row!.applied).toBe(21);
    } finally {
      await projector.stop();
      await close();
    }
  }, 60_000);

  it("a log that cannot be read for a while stops nothing: the reader tries again and every projection catches up", async () => {
    const { driver: own, store: log, close } = await openTestLog({ pollIntervalMs: 100 });
    const messages: string[] = [];
    const projector = await startProjector({ driver: own, store: log, projections: [keeper("alpha"), keeper("gamma")], scanIntervalMs: 100, onEvent: (m) => messages.push(m) });
    let broken = false;
    projector.failure.catch(() => (broken = true));
    try {
      await log.append("order-420001", [remark("420001", "before")], { expectedVersion: "any" });
      await projector.ready;
      // The log's table is away (as a dropped connection or a failed-over server would leave it).
      await own.query("alter table es_events rename to es_events_away");
      while (!messages.some((m) => m.startsWith("reading the log failed"))) await sleep(50);
      await own.query("alter table es_events_away rename to es_events");
      let head = (await log.append("order-420001", [remark("420001", "after 1")], { expectedVersion: "any" })).position;
      head = (await log.append("order-420002", [remark("420002", "after 2")], { expectedVersion: "any" })).position;
      expect(await waitForPosition(own, head, ["alpha", "gamma"], 10_000)).toBe(true);
      expect(broken).toBe(false);
      const counts = await own.query("select (select count(*)::int from alpha_seen) as alpha, (select count(*)::int from gamma_seen) as gamma");
      expect(counts[0]).toEqual({ alpha: 3, gamma: 3 });
    } finally {
      await projector.stop();
      await close();
    }
  }, 30_000);

  it("a connection lost in the middle of a batch, with more pages waiting, loses nothing: the batch is applied again, once", async () => {
    const { url, driver: own, store: log, close } = await openTestLog({ pollIntervalMs: 100 });
    const admin = await openPostgresDriver({ connectionString: url, maxConnections: 1 });
    let open = () => {};
    let holding = false;
    let heldOnce = false;
    const held: Projection = {
      ...keeper("held"),
      apply: async (events, query, table) => {
        if (!heldOnce && events.some((e) => e.event.type === "RemarkAdded" && remarkText(e.event.data) === "hold")) {
          heldOnce = true;
          holding = true;
          await new Promise<void>((resolve) => (open = resolve));
          holding = false;
        }
        await query(`insert into ${table("held_seen")} select unnest($1::uuid[])`, [events.map((e) => e.eventId)]);
      },
    };
    const messages: string[] = [];
    // Small pages, so that the reader is a few pages ahead (waiting on the batch) when it fails.
    const projector = await startProjector({ driver: own, store: log, projections: [held], batchSize: 5, scanIntervalMs: 100, onEvent: (m) => messages.push(m) });
    let broken = false;
    projector.failure.catch(() => (broken = true));
    try {
      await log.append("order-430001", [remark("430001", "first")], { expectedVersion: "any" });
      await projector.ready;
      let head = (await log.append("order-430001", [remark("430001", "hold")], { expectedVersion: "any" })).position;
      while (!holding) await sleep(20);
      for (let n = 0; n < 30; n++) head = (await log.append(`order-4300${10 + (n % 5)}`, [remark("430010", `queued ${n}`)], { expectedVersion: "any" })).position;
      await sleep(500);
      // Every connection of the projector's pool is ended, the one holding the batch's transaction too.
      await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()");
      open();
      while (!messages.some((m) => m.startsWith("held: writing failed, trying again"))) await sleep(20);
      expect(await waitForPosition(admin, head, ["held"], 10_000)).toBe(true);
      expect(broken).toBe(false);
      expect((await admin.query("select count(*)::int as n from held_seen"))[0]!.n).toBe(32);
    } finally {
      await projector.stop();
      await admin.close();
      await close();
    }
  }, 30_000);
});
