import { openPostgresDriver, openSealedSqlEventStore, type EventStore, type SqlDriver } from "@etd/event-store";
import { createTestDatabase } from "@etd/infra/test-database";
import { generateLog } from "../../bench/workload.ts";

/*
 * A throwaway PostgreSQL database holding an event log, with a driver and the sealed store on it,
 * for the engine's tests. With `events`, the log is the benchmark's realistic workload (seeded).
 */

export interface TestLog {
  readonly url: string;
  readonly driver: SqlDriver;
  readonly store: EventStore;
  readonly close: () => Promise<void>;
}

export const openTestLog = async (options: { events?: number; seed?: number; pollIntervalMs?: number; maxConnections?: number } = {}): Promise<TestLog> => {
  const database = await createTestDatabase();
  if (options.events) await generateLog({ connectionString: database.url, events: options.events, seed: options.seed ?? 1, synchronousCommit: false });
  const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: options.maxConnections ?? 4 });
  const store = await openSealedSqlEventStore(driver, options.pollIntervalMs === undefined ? {} : { pollIntervalMs: options.pollIntervalMs });
  return {
    url: database.url,
    driver,
    store,
    close: async () => {
      await store.close();
      await driver.close();
      await database.drop();
    },
  };
};
