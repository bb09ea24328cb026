import { randomUUID } from "node:crypto";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPgliteDriver, openPostgresDriver, createSqlEventStore, readChain, verifyChain, verifyStoredChain, type EventStore, type NewEvent, type Query, type SqlDriver } from "../src/index.ts";

/*
 * Issue 14, tamper evidence: every event's hash covers its stored fields and its stream
 * predecessor's hash. An untouched log verifies clean, in the database and from its export; one
 * changed byte (data, metadata, type), a reordering, a deleted or an inserted event is named by
 * both verifiers.
 */

const available = await postgresAvailable();

const event = (type: string, data: Record<string, unknown>, metadata: Record<string, unknown> = {}): NewEvent => ({
  eventId: randomUUID(),
  type,
  schemaVersion: 1,
  data,
  metadata,
});

/** The same log on both engines: several streams, batches, nesting, and text that is not ASCII. */
const fill = async (store: EventStore) => {
  for (const n of [1, 2, 3]) {
    await store.append(`order-${n}`, [event("OrderPlaced", { n, name: "Año 🌏 \"quoted\"\n", nested: { b: [1, 2], a: null } }, { actor: { kind: "system" } })], { expectedVersion: "no_stream" });
    await store.append(`order-${n}`, [event("RemarkAdded", { text: `remark ${n}` }), event("OrderStatusChanged", { to: "Completed", big: 12345678901234567890 })], { expectedVersion: 1n });
  }
};

/** Runs a tamper and both verifiers inside a transaction that is rolled back: the log is left as it was. */
const tampered = async (driver: SqlDriver, tamper: (query: Query) => Promise<unknown>) => {
  let result: { inDatabase: Awaited<ReturnType<typeof verifyStoredChain>>; fromExport: ReturnType<typeof verifyChain> } | undefined;
  await driver
    .transaction(async (query) => {
      await tamper(query);
      const exported = [];
      for await (const e of readChain({ query })) exported.push(JSON.parse(JSON.stringify(e)));
      result = { inDatabase: await verifyStoredChain({ query }), fromExport: verifyChain(exported) };
      throw new Error("roll back");
    })
    .catch((error: unknown) => {
      if ((error as Error).message !== "roll back") throw error;
    });
  return result!;
};

const engines: [string, boolean, () => Promise<{ driver: SqlDriver; close: () => Promise<void> }>][] = [
  [
    "PostgreSQL",
    !available,
    async () => {
      const database: TestDatabase = await createTestDatabase();
      const driver = await openPostgresDriver({ connectionString: database.url });
      return { driver, close: async () => { await driver.close(); await database.drop(); } };
    },
  ],
  [
    "PGlite",
    false,
    async () => {
      const driver = await openPgliteDriver("memory://");
      return { driver, close: () => driver.close() };
    },
  ],
];

describe.each(engines)("issue 14: the events' hash chain on %s", (_name, skip, open) => {
  let driver: SqlDriver;
  let close: () => Promise<void>;

  beforeAll(async () => {
    if (skip) return;
    ({ driver, close } = await open());
    await fill(await createSqlEventStore(driver));
  }, 60_000);

  afterAll(async () => {
    await close?.();
  });

  it.skipIf(skip)("an untouched log verifies clean in the database and from its export", async () => {
    expect(await verifyStoredChain(driver)).toEqual({ checked: 9, firstBreak: undefined });
    const exported = [];
    for await (const e of readChain(driver)) exported.push(e);
    expect(verifyChain(exported)).toEqual({ checked: 9, firstBreak: undefined });
    expect(await verifyStoredChain(driver, "order-2")).toEqual({ checked: 3, firstBreak: undefined });
  });

  it.skipIf(skip)("events stored before the chain existed get their hashes on the next start, and verify clean", async () => {
    const hashes = async () => (await driver.query("select encode(hash, 'hex') as h from es_events order by global_position")).map((r) => r.h);
    const before = await hashes();
    await driver.query("alter table es_events alter column hash drop not null");
    await driver.query("update es_events set hash = null where stream_id <> 'order-1'");
    await createSqlEventStore(driver);
    expect(await hashes()).toEqual(before);
    expect(await verifyStoredChain(driver)).toEqual({ checked: 9, firstBreak: undefined });
  });

  const position = async (query: Query, stream: string, at: number) =>
    (await query("select event_id::text as id from es_events where stream_id = $1 and stream_position = $2", [stream, at]))[0]!.id as string;

  it.skipIf(skip)("one changed byte of data, metadata or type is named, by both verifiers", async () => {
    const cases: [string, string][] = [
      ["data", `update es_events set data = jsonb_set(data, '{text}', '"remark 3"') where stream_id = 'order-2' and stream_position = 2`],
      ["metadata", `update es_events set metadata = '{"actor": {"kind": "customer"}}' where stream_id = 'order-2' and stream_position = 1`],
      ["type", `update es_events set type = 'RemarkAddeD' where stream_id = 'order-2' and stream_position = 2`],
      ["time", `update es_events set recorded_at = recorded_at + interval '1 microsecond' where stream_id = 'order-2' and stream_position = 3`],
    ];
    for (const [what, sql] of cases) {
      const report = await tampered(driver, async (query) => query(sql));
      const at = what === "metadata" ? 1 : what === "time" ? 3 : 2;
      const expected = { streamId: "order-2", streamPosition: String(at), reason: "content" };
      expect(report.inDatabase.firstBreak, what).toMatchObject(expected);
      expect(report.fromExport.firstBreak, what).toMatchObject(expected);
    }
  });

  it.skipIf(skip)("a reordering, a deleted event and an inserted event are named", async () => {
    const swapped = await tampered(driver, async (query) => {
      await query(`update es_events set stream_position = -stream_position where stream_id = 'order-3' and stream_position in (2, 3)`);
      await query(`update es_events set stream_position = case stream_position when -2 then 3 else 2 end where stream_id = 'order-3' and stream_position < 0`);
    });
    expect(swapped.inDatabase.firstBreak).toMatchObject({ streamId: "order-3", streamPosition: "2", reason: "content" });
    expect(swapped.fromExport.firstBreak).toMatchObject({ streamId: "order-3", streamPosition: "2", reason: "content" });

    let deletedId = "";
    const deleted = await tampered(driver, async (query) => {
      deletedId = await position(query, "order-1", 2);
      await query(`delete from es_events where event_id = $1`, [deletedId]);
    });
    expect(deleted.inDatabase.firstBreak).toMatchObject({ streamId: "order-1", streamPosition: "3", reason: "gap" });
    expect(deleted.fromExport.firstBreak).toMatchObject({ streamId: "order-1", streamPosition: "3", reason: "gap" });

    // The best an intruder without the successors' rewrite can do: an event with a correct hash
    // for its own place, the later ones moved down a position.
    const inserted = await tampered(driver, async (query) => {
      await query(`update es_events set stream_position = stream_position + 10 where stream_id = 'order-1' and stream_position >= 2`);
      await query(`update es_events set stream_position = stream_position - 9 where stream_id = 'order-1' and stream_position >= 12`);
      await query(
        `insert into es_events (stream_id, stream_position, event_id, type, schema_version, data, metadata, recorded_at, hash)
         select 'order-1', 2, $1::uuid, 'RefundIssued', 1, '{}'::jsonb, '{}'::jsonb, now(),
                sha256(p.hash || es_event_digest('order-1', 2, $1::uuid, 'RefundIssued', 1, '{}'::jsonb, '{}'::jsonb, now()))
           from es_events p where p.stream_id = 'order-1' and p.stream_position = 1`,
        [randomUUID()],
      );
    });
    // The inserted event itself passes; the one it displaced no longer chains to its predecessor.
    expect(inserted.inDatabase).toMatchObject({ checked: 2, firstBreak: { streamId: "order-1", streamPosition: "3", reason: "content" } });
    expect(inserted.fromExport).toMatchObject({ checked: 2, firstBreak: { streamId: "order-1", streamPosition: "3", reason: "content" } });
    // Each rolled back: the log verifies clean again.
    expect((await verifyStoredChain(driver)).firstBreak).toBeUndefined();
  });
});
