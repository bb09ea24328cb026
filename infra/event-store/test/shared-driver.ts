import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSqlEventStore, createSqlKeyStore, type NewEvent, type RecordedEvent, type SqlDriver } from "../src/index.ts";

/**
 * One driver per database, shared by the event store and every other table (credentials, read
 * models): the caller opens it, stores borrow it, and only the caller closes it.
 */
export interface SharedDriverHarness {
  /** A driver on the suite's database: the same database on every call. */
  openDriver(): Promise<SqlDriver>;
  teardown?(): Promise<void>;
}

const event = (type: string): NewEvent => ({ eventId: randomUUID(), type, schemaVersion: 1, data: {}, metadata: {} });

export const sharedDriverSuite = (name: string, harness: () => SharedDriverHarness) => {
  describe(`shared driver: ${name}`, () => {
    let h: SharedDriverHarness;
    let driver: SqlDriver;

    beforeAll(async () => {
      h = harness();
      driver = await h.openDriver();
    }, 60_000);

    afterAll(async () => {
      await driver?.close();
      await h?.teardown?.();
    }, 60_000);

    it("runs every migration at once on one driver without tripping over itself", async () => {
      const opened = await Promise.all([
        ...Array.from({ length: 4 }, () => createSqlEventStore(driver)),
        ...Array.from({ length: 4 }, () => createSqlKeyStore(driver)),
      ]);
      expect(opened).toHaveLength(8);
      const tables = await driver.query(
        "select table_name::text as name from information_schema.tables where table_schema = 'public' order by 1",
      );
      expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["es_events", "es_stream_keys"]));
    });

    it("leaves the driver open when a store on it closes: the caller closes it", async () => {
      const stream = `order-${randomUUID()}`;
      const first = await createSqlEventStore(driver);
      await first.append(stream, [event("OrderPlaced")], { expectedVersion: "no_stream" });
      await first.close();

      expect(await driver.query("select 1 as one")).toEqual([{ one: 1 }]);
      const second = await createSqlEventStore(driver);
      expect((await second.readStream(stream)).map((e) => e.type)).toEqual(["OrderPlaced"]);
      await second.close();
    });

    it("keeps other tables in the same database, next to the events", async () => {
      await driver.query("create table if not exists probe_credentials (staff_id text primary key, hash text not null)");
      const store = await createSqlEventStore(driver);
      const stream = `staff-${randomUUID()}`;
      await driver.transaction(async (query) => {
        await query("insert into probe_credentials (staff_id, hash) values ($1, $2)", [stream, "argon2id$..."]);
      });
      await store.append(stream, [event("StaffAdded")], { expectedVersion: "no_stream" });
      const [row] = await driver.query(
        `select c.hash, e.type from probe_credentials c join es_events e on e.stream_id = c.staff_id where c.staff_id = $1`,
        [stream],
      );
      expect(row).toEqual({ hash: "argon2id$...", type: "StaffAdded" });
      await store.close();
    });

    it("wakes a subscriber when another store on the same driver appends, without waiting for its poll", async () => {
      // A poll interval far beyond the test's patience: only a wake-up can deliver in time.
      const reader = await createSqlEventStore(driver, { pollIntervalMs: 600_000 });
      const writer = await createSqlEventStore(driver, { pollIntervalMs: 600_000 });
      const seen: RecordedEvent[] = [];
      let caughtUp = false;
      const subscription = reader.subscribe({
        after: await reader.headPosition(),
        handle: async (events) => {
          seen.push(...events);
        },
        onCaughtUp: () => {
          caughtUp = true;
        },
      });
      try {
        while (!caughtUp) await sleep(5);
        const stream = `order-${randomUUID()}`;
        await writer.append(stream, [event("OrderPlaced")], { expectedVersion: "no_stream" });
        const deadline = Date.now() + 10_000;
        while (!seen.some((e) => e.streamId === stream) && Date.now() < deadline) await sleep(5);
        expect(seen.map((e) => e.streamId)).toContain(stream);
      } finally {
        await subscription.stop();
        await reader.close();
        await writer.close();
      }
    });
  });
};
