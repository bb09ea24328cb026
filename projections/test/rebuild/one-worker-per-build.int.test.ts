import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Projection } from "../../src/engine/projection.ts";
import { startProjector } from "../../src/engine/projector.ts";
import { openTestLog, type TestLog } from "../support/test-log.ts";

/*
 * The projector scans for work from its start-up loop and from a timer. Two scans that overlap
 * must not both start a worker on the same build: the two would fail each other's batches
 * ("no longer this process's to write") for ever, and stop() could not reach the one it had
 * lost track of. A scan interval far shorter than a scan makes them overlap all the time.
 */

const available = await postgresAvailable();

/** Counts what it is given, per stream: enough to see every event arrive once. */
const counter: Projection = {
  name: "counter",
  version: 1,
  tables: ["counted_streams"],
  migrate: async (query, table) => {
    await query(`create table ${table("counted_streams")} (stream_id text primary key, events integer not null)`);
  },
  apply: async (events, query, table) => {
    const counts = new Map<string, number>();
    for (const e of events) counts.set(e.streamId, (counts.get(e.streamId) ?? 0) + 1);
    await query(
      `insert into ${table("counted_streams")} select * from unnest($1::text[], $2::int[])
         on conflict (stream_id) do update set events = ${table("counted_streams")}.events + excluded.events`,
      [[...counts.keys()], [...counts.values()]],
    );
  },
};

describe.skipIf(!available)("R3 one worker per build in a projector process", () => {
  let log: TestLog;

  beforeAll(async () => {
    log = await openTestLog({ events: 6000, seed: 11 });
  }, 120_000);

  afterAll(async () => {
    await log?.close();
  });

  it("overlapping scans start one worker per build: the rebuild finishes, nothing fights over it, and stop() leaves nothing running", async () => {
    const { driver, store } = log;
    const messages: string[] = [];
    const projector = await startProjector({ driver, store, projections: [counter], scanIntervalMs: 1, batchSize: 100, onEvent: (m) => messages.push(m) });
    try {
      await projector.ready;
    } finally {
      await projector.stop();
    }
    expect(messages.filter((m) => m.includes("no longer this process's to write"))).toEqual([]);
    const applied = async () => Number((await driver.query("select events_applied from projection_builds where name = 'counter' and status = 'live'"))[0]!.events_applied);
    expect(await applied()).toBe(6000);
    expect(Number((await driver.query("select sum(events)::int as total from counted_streams"))[0]!.total)).toBe(6000);
    const [lease] = await driver.query("select lease_owner from projection_builds where name = 'counter' and status = 'live'");
    expect(lease!.lease_owner).toBeNull();
  }, 30_000);
});
