import { randomUUID } from "node:crypto";
import { createPostgresEventStore, openPostgresDriver, openSealedSqlEventStore, type EventStore, type SqlDriver } from "@etd/event-store";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Projection } from "../../src/engine/projection.ts";
import { PROJECTION_CHANNEL, startProjector } from "../../src/engine/projector.ts";
import { projectionLag } from "../../src/engine/lag.ts";
import { waitForPosition } from "../../src/engine/build-worker.ts";
import { startBuild, tableOf } from "../../src/engine/registry.ts";

const available = await postgresAvailable();

/**
 * A projection that records every event it is given, and refuses (stopping the projector) an
 * event applied twice or a stream position out of order: the engine's guarantees made visible.
 */
const recorder = (version = 1): Projection => ({
  name: "recorder",
  version,
  tables: ["recorded", "stream_heads"],
  migrate: async (query, table) => {
    await query(`create table ${table("recorded")} (event_id uuid primary key, stream_id text not null, stream_position bigint not null, seq bigint not null)`);
    await query(`create table ${table("stream_heads")} (stream_id text primary key, position bigint not null)`);
  },
  apply: async (events, query, table) => {
    const heads = new Map<string, bigint>();
    const streams = [...new Set(events.map((e) => e.streamId))];
    for (const row of await query(`select stream_id, position from ${table("stream_heads")} where stream_id = any($1::text[])`, [streams])) {
      heads.set(row.stream_id as string, BigInt(row.position as string));
    }
    for (const e of events) {
      const expected = (heads.get(e.streamId) ?? 0n) + 1n;
      if (e.streamPosition !== expected) throw new Error(`${e.streamId}: got ${e.streamPosition}, expected ${expected}`);
      heads.set(e.streamId, e.streamPosition);
    }
    await query(
      `insert into ${table("recorded")} select * from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[])`,
      [events.map((e) => e.eventId), events.map((e) => e.streamId), events.map((e) => e.streamPosition.toString()), events.map((e) => e.position.seq.toString())],
    );
    await query(
      `insert into ${table("stream_heads")} select * from unnest($1::text[], $2::bigint[]) on conflict (stream_id) do update set position = excluded.position`,
      [[...heads.keys()], [...heads.values()].map(String)],
    );
  },
});

const remark = (orderId: string, n: number) => ({
  eventId: randomUUID(),
  type: "RemarkAdded",
  schemaVersion: 2,
  data: { orderId, remark: `note ${n}`, remarkerName: "Tessa Cruz", whatsapp: false, telephone: false, statusRefund: false, voided: false, chargeBack: false, reportError: false },
  metadata: { actor: { kind: "system", name: "test" }, correlationId: `c-${n}`, occurredAt: new Date().toISOString() },
});

describe.skipIf(!available)("projection engine on PostgreSQL", () => {
  let database: TestDatabase;
  let driver: SqlDriver;
  let store: EventStore;
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 8 });
    store = await openSealedSqlEventStore(driver, { pollIntervalMs: 200 });
  });

  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  afterAll(async () => {
    await store?.close();
    await driver?.close();
    await database?.drop();
  });

  it("R2 through the engine: 16 writers committing out of order while the projector follows; every event once, every stream in order", async () => {
    // A second store on the same database whose appends sleep inside their transactions, so that
    // later sequence numbers commit before earlier ones.
    const slow = await createPostgresEventStore({
      connectionString: database.url,
      maxConnections: 20,
      beforeCommit: () => new Promise((resolve) => setTimeout(resolve, Math.random() * 30)),
    });
    cleanups.push(() => slow.close());
    const projector = await startProjector({ driver, store, projections: [recorder()], batchSize: 50, scanIntervalMs: 200 });
    cleanups.push(() => projector.stop());
    await projector.ready;

    const perWriter = 40;
    let last = { tx: 0n, seq: 0n };
    await Promise.all(
      Array.from({ length: 16 }, async (_, writer) => {
        for (let n = 0; n < perWriter; n++) {
          const result = await slow.append(`order-${100000 + (n % 5) * 16 + writer}`, [remark(String(100000 + writer), n)], { expectedVersion: "any" });
          if (result.position.tx > last.tx || (result.position.tx === last.tx && result.position.seq > last.seq)) last = result.position;
        }
      }),
    );
    expect(await waitForPosition(driver, last, ["recorder"], 20_000)).toBe(true);
    const [{ count }] = (await driver.query("select count(*)::int as count from recorded")) as [{ count: number }];
    const [{ total }] = (await driver.query("select count(*)::int as total from es_events")) as [{ total: number }];
    expect(count).toBe(16 * perWriter);
    expect(total).toBe(16 * perWriter);
    const lag = await projectionLag(driver);
    expect(lag.find((l) => l.projection === "recorder" && l.status === "live")).toMatchObject({ eventsBehind: 0, eventsApplied: 16 * perWriter });
  }, 60_000);

  it("notifies {projection, position} after each batch", async () => {
    const projector = await startProjector({ driver, store, projections: [recorder()], scanIntervalMs: 200 });
    cleanups.push(() => projector.stop());
    await projector.ready;
    const heard: string[] = [];
    const stop = await driver.onNotification(PROJECTION_CHANNEL, (payload) => heard.push(payload));
    cleanups.push(stop);
    const appended = await store.append("order-200001", [remark("200001", 1)], { expectedVersion: "any" });
    await waitForPosition(driver, appended.position, ["recorder"], 5000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard.map((p) => JSON.parse(p) as unknown)).toContainEqual({ projection: "recorder", position: `${appended.position.tx}.${appended.position.seq}` });
  });

  it("two projectors at once: one applies each build, the other stands by and takes over when the first stops; nothing twice", async () => {
    const other = await openPostgresDriver({ connectionString: database.url, maxConnections: 4 });
    const otherStore = await openSealedSqlEventStore(other, { pollIntervalMs: 200 });
    cleanups.push(async () => {
      await otherStore.close();
      await other.close();
    });
    const first = await startProjector({ driver, store, projections: [recorder()], owner: "first", leaseMs: 600, scanIntervalMs: 100, batchSize: 7 });
    const second = await startProjector({ driver: other, store: otherStore, projections: [recorder()], owner: "second", leaseMs: 600, scanIntervalMs: 100, batchSize: 7 });
    cleanups.push(() => second.stop());
    let last = { tx: 0n, seq: 0n };
    for (let n = 0; n < 60; n++) {
      last = (await store.append(`order-3000${n % 7}0`, [remark("300000", n)], { expectedVersion: "any" })).position;
      if (n === 30) await first.stop();
    }
    expect(await waitForPosition(driver, last, ["recorder"], 20_000)).toBe(true);
    const [{ dupes }] = (await driver.query("select count(*) - count(distinct event_id) as dupes from recorded")) as [{ dupes: string }];
    expect(Number(dupes)).toBe(0);
    const [{ missing }] = (await driver.query("select count(*)::int as missing from es_events e where not exists (select 1 from recorded r where r.event_id = e.event_id)")) as [{ missing: number }];
    expect(missing).toBe(0);
  }, 60_000);

  it("a rebuild builds beside the live read model and switches over when caught up; readers never lose the view", async () => {
    const projection = recorder();
    const projector = await startProjector({ driver, store, projections: [projection], scanIntervalMs: 100 });
    cleanups.push(() => projector.stop());
    await projector.ready;
    const before = (await driver.query("select build from projection_builds where name = 'recorder' and status = 'live'"))[0]!.build;
    const rebuild = await startBuild(driver, "recorder", 1, (query, build) => projection.migrate(query, (base) => tableOf(build, base)));
    let sawView = true;
    const reader = setInterval(() => {
      driver.query("select count(*) from recorded").catch(() => (sawView = false));
    }, 5);
    try {
      for (let i = 0; i < 100; i++) {
        const live = await driver.query("select build from projection_builds where name = 'recorder' and status = 'live'");
        if (Number(live[0]?.build) === rebuild.build) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      clearInterval(reader);
    }
    expect(Number((await driver.query("select build from projection_builds where name = 'recorder' and status = 'live'"))[0]!.build)).toBe(rebuild.build);
    expect(Number(before)).not.toBe(rebuild.build);
    expect(sawView).toBe(true);
    const [{ count }] = (await driver.query("select count(*)::int as count from recorded")) as [{ count: number }];
    const [{ total }] = (await driver.query("select count(*)::int as total from es_events")) as [{ total: number }];
    expect(count).toBe(total);

    // The new build caught up on its own, then joined the process's shared reader: what comes
    // next reaches it once.
    let last = { tx: 0n, seq: 0n };
    for (let n = 0; n < 30; n++) last = (await store.append(`order-5000${n % 3}0`, [remark("500000", n)], { expectedVersion: "any" })).position;
    expect(await waitForPosition(driver, last, ["recorder"], 10_000)).toBe(true);
    const [{ after }] = (await driver.query("select count(*)::int as after from recorded")) as [{ after: number }];
    expect(after).toBe(total + 30);
  }, 30_000);
});
