import { randomUUID } from "node:crypto";
import { openPostgresDriver, openSealedSqlEventStore, type EventStore, type SqlDriver } from "@etd/event-store";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Projection } from "../../src/engine/projection.ts";
import { startProjector } from "../../src/engine/projector.ts";
import { waitForPosition } from "../../src/engine/wait-for-position.ts";

/*
 * One projector process reads the log once and feeds every projection from it (ADR 0005), each
 * in its own transaction with its own checkpoint. What must still hold: every projection gets
 * every event exactly once, and one projection that breaks stops alone, with its error reported,
 * while the others keep following the log.
 */

const available = await postgresAvailable();

/** Keeps every event id it is given; the primary key refuses one given twice. */
const keeper = (name: string, breaksOn?: string): Projection => ({
  name,
  version: 1,
  tables: [`${name}_seen`],
  migrate: async (query, table) => {
    await query(`create table ${table(`${name}_seen`)} (event_id uuid primary key)`);
  },
  apply: async (events, query, table) => {
    for (const e of events) {
      if (breaksOn !== undefined && e.event.type === "RemarkAdded" && e.event.data.remark === breaksOn) throw new Error(`${name} cannot take "${breaksOn}"`);
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
  let database: TestDatabase;
  let driver: SqlDriver;
  let store: EventStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 4 });
    store = await openSealedSqlEventStore(driver, { pollIntervalMs: 200 });
  });

  afterAll(async () => {
    await store?.close();
    await driver?.close();
    await database?.drop();
  });

  const seen = async (name: string) => Number((await driver.query(`select count(*)::int as n from ${name}_seen`))[0]!.n);

  it("gives every projection every event once; one that breaks stops alone and says why, the others carry on", async () => {
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
});
