import { randomUUID } from "node:crypto";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSqlEventStore,
  exportStreams,
  openPgliteDriver,
  openPostgresDriver,
  orderStreams,
  readChain,
  sealLog,
  verifyChain,
  verifyStoredChain,
  type ChainedEvent,
  type ChainReport,
  type EventStore,
  type ExportedEvent,
  type NewEvent,
  type Query,
  type SqlDriver,
} from "../src/index.ts";

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

/**
 * Runs a tamper and both verifiers (the database's and one over the whole log's export) inside a
 * transaction that is rolled back: the log is left as it was. Rows an intruder adds take an older
 * transaction id, as one hiding them would: the walk reads below the horizon, as every reader.
 */
const tampered = async (driver: SqlDriver, tamper: (query: Query) => Promise<unknown>) => {
  let result: { inDatabase: ChainReport; fromExport: ChainReport } | undefined;
  await driver
    .transaction(async (query) => {
      await tamper(query);
      const exported = [];
      for await (const e of readChain({ query })) exported.push(JSON.parse(JSON.stringify(e)) as ChainedEvent);
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
    expect(await sealLog(driver)).toBe(9);
  }, 60_000);

  afterAll(async () => {
    await close?.();
  });

  it.skipIf(skip)("an untouched log verifies clean in the database and from its export; every event is sealed", async () => {
    const report = await verifyStoredChain(driver);
    expect(report).toMatchObject({ checked: 9, sealed: 9, firstBreak: undefined });
    expect(report.head).toMatch(/^[0-9a-f]{64}$/);
    const [head] = await driver.query("select encode(hash, 'hex') as hash, sealed::text as sealed from es_chain_head");
    expect(head).toEqual({ hash: report.head, sealed: "9" });
    const exported = [];
    for await (const e of readChain(driver)) exported.push(e);
    expect(verifyChain(exported)).toEqual(report);
    const order: ExportedEvent[] = [];
    for await (const e of exportStreams(driver, await orderStreams(driver, "order-2"))) order.push(e);
    expect(order.map((e) => e.streamPosition)).toEqual(["1", "2", "3"]);
    expect(verifyChain(order, { partial: false, consecutive: false })).toMatchObject({ checked: 3, sealed: 3, firstBreak: undefined });
  });

  it.skipIf(skip)("events stored before the chain existed get their hashes on the next start, and verify clean", async () => {
    const hashes = async () => (await driver.query("select encode(hash, 'hex') as h from es_events order by global_position")).map((r) => r.h);
    const before = await hashes();
    await driver.query("alter table es_events alter column hash drop not null");
    await driver.query("update es_events set hash = null where stream_id <> 'order-1'");
    await createSqlEventStore(driver);
    expect(await hashes()).toEqual(before);
    expect(await verifyStoredChain(driver)).toMatchObject({ checked: 9, firstBreak: undefined });
  });

  const idAt = async (query: Query, stream: string, at: number) =>
    (await query("select event_id::text as id from es_events where stream_id = $1 and stream_position = $2", [stream, at]))[0]!.id as string;

  const bothName = (report: Awaited<ReturnType<typeof tampered>>, expected: Partial<ChainReport["firstBreak"]>, what: string) => {
    expect(report.inDatabase.firstBreak, `${what} (database)`).toMatchObject(expected!);
    expect(report.fromExport.firstBreak, `${what} (export)`).toMatchObject(expected!);
  };

  it.skipIf(skip)("one changed byte of data, metadata, type or time is named, by both verifiers", async () => {
    const cases: [string, string, number][] = [
      ["data", `update es_events set data = jsonb_set(data, '{text}', '"remark 3"') where stream_id = 'order-2' and stream_position = 2`, 2],
      ["metadata", `update es_events set metadata = '{"actor": {"kind": "customer"}}' where stream_id = 'order-2' and stream_position = 1`, 1],
      ["type", `update es_events set type = 'RemarkAddeD' where stream_id = 'order-2' and stream_position = 2`, 2],
      ["time", `update es_events set recorded_at = recorded_at + interval '1 microsecond' where stream_id = 'order-2' and stream_position = 3`, 3],
    ];
    for (const [what, sql, at] of cases) {
      bothName(await tampered(driver, (query) => query(sql)), { streamId: "order-2", streamPosition: String(at), reason: "content" }, what);
    }
  });

  it.skipIf(skip)("a changed order, in a stream or in the log, is named", async () => {
    const swapped = await tampered(driver, async (query) => {
      await query(`update es_events set stream_position = -stream_position where stream_id = 'order-3' and stream_position in (2, 3)`);
      await query(`update es_events set stream_position = case stream_position when -2 then 3 else 2 end where stream_id = 'order-3' and stream_position < 0`);
    });
    // In log order the event that was second now says third: position 2 is missing before it.
    bothName(swapped, { streamId: "order-3", streamPosition: "3", reason: "gap" }, "stream order");

    // order-2's first event moved up the log, into order-1's first transaction: its stream order
    // holds, its global link does not.
    const moved = await tampered(driver, async (query) =>
      query(`update es_events set transaction_id = (select transaction_id from es_events where stream_id = 'order-1' and stream_position = 1)
              where stream_id = 'order-2' and stream_position = 1`),
    );
    bothName(moved, { streamId: "order-2", streamPosition: "1", reason: "chain" }, "log order");
  });

  it.skipIf(skip)("a deleted event is named: in a stream, at a stream's end, at the log's end", async () => {
    const inStream = await tampered(driver, async (query) => query(`delete from es_events where event_id = $1`, [await idAt(query, "order-1", 2)]));
    bothName(inStream, { streamId: "order-1", streamPosition: "3", reason: "gap" }, "in a stream");

    // order-2's last event: its stream says nothing, the next event in the log no longer links.
    const streamEnd = await tampered(driver, async (query) => query(`delete from es_events where event_id = $1`, [await idAt(query, "order-2", 3)]));
    bothName(streamEnd, { streamId: "order-3", streamPosition: "1", reason: "chain" }, "at a stream's end");

    // The log's last event: only the sealed head knows it existed. The export alone cannot tell.
    const logEnd = await tampered(driver, async (query) => query(`delete from es_events where event_id = $1`, [await idAt(query, "order-3", 3)]));
    expect(logEnd.inDatabase.firstBreak).toMatchObject({ streamId: "order-3", streamPosition: "2", reason: "truncated" });
    expect(logEnd.fromExport.firstBreak).toBeUndefined();
    expect(logEnd.fromExport.head).not.toBe((await verifyStoredChain(driver)).head);
  });

  it.skipIf(skip)("an inserted event is named: in a stream, or as a new stream among sealed events", async () => {
    // The best an intruder without the successors' rewrite can do: an event with a correct hash
    // for its own place, the later ones moved down a position.
    const inStream = await tampered(driver, async (query) => {
      await query(`update es_events set stream_position = stream_position + 10 where stream_id = 'order-1' and stream_position >= 2`);
      await query(`update es_events set stream_position = stream_position - 9 where stream_id = 'order-1' and stream_position >= 12`);
      await query(
        `insert into es_events (transaction_id, stream_id, stream_position, event_id, type, schema_version, data, metadata, recorded_at, hash)
         select p.transaction_id, 'order-1', 2, $1::uuid, 'RefundIssued', 1, '{}'::jsonb, '{}'::jsonb, now(),
                sha256(p.hash || es_event_digest('order-1', 2, $1::uuid, 'RefundIssued', 1, '{}'::jsonb, '{}'::jsonb, now()))
           from es_events p where p.stream_id = 'order-1' and p.stream_position = 1`,
        [randomUUID()],
      );
    });
    // The inserted event itself passes; the one it displaced no longer chains to its predecessor.
    bothName(inStream, { streamId: "order-1", streamPosition: "3", reason: "content" }, "in a stream");

    // A whole new stream, its hash right, slipped in among sealed events: it has no global link.
    const newStream = await tampered(driver, async (query) =>
      query(
        `insert into es_events (transaction_id, stream_id, stream_position, event_id, type, schema_version, data, metadata, recorded_at, hash)
         select p.transaction_id, 'order-9', 1, $1::uuid, 'OrderPlaced', 1, '{}'::jsonb, '{}'::jsonb, now(),
                sha256(es_chain_start() || es_event_digest('order-9', 1, $1::uuid, 'OrderPlaced', 1, '{}'::jsonb, '{}'::jsonb, now()))
           from es_events p where p.stream_id = 'order-1' and p.stream_position = 1`,
        [randomUUID()],
      ),
    );
    bothName(newStream, { streamId: "order-9", streamPosition: "1", reason: "unsealed" }, "a new stream");
    // Each rolled back: the log verifies clean again.
    expect((await verifyStoredChain(driver)).firstBreak).toBeUndefined();
  });

  it.skipIf(skip)("a changed line of an exported order is named by the verifier, without the database", async () => {
    const lines: ExportedEvent[] = [];
    for await (const e of exportStreams(driver, ["order-3"])) lines.push(e);
    const verify = (events: ExportedEvent[]) => verifyChain(events, { partial: false, consecutive: false }).firstBreak;
    expect(verify(lines)).toBeUndefined();
    const oneByte = lines.map((e, i) => (i === 1 ? { ...e, data: e.data.replace("remark 3", "remark 4") } : e));
    expect(verify(oneByte)).toMatchObject({ streamId: "order-3", streamPosition: "2", reason: "content" });
    expect(verify([lines[0]!, lines[2]!])).toMatchObject({ streamPosition: "3", reason: "gap" });
    expect(verify([lines[0]!, lines[2]!, lines[1]!])).toMatchObject({ streamPosition: "3", reason: "gap" });
    const forgedLink = lines.map((e, i) => (i === 2 ? { ...e, chain: "00".repeat(32) } : e));
    expect(verify(forgedLink)).toMatchObject({ streamPosition: "3", reason: "chain" });
  });
});
