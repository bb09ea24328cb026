import { createPostgresEventStore, type EventStore } from "@etd/event-store";
import { createTestDatabase, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll } from "vitest";

/**
 * A real PostgreSQL event store, in a database of its own, for the enclosing `describe`: made
 * before its tests, closed and dropped after them. The store answered stands for the one made
 * then (calls before `beforeAll` has run have nothing to reach, and fail).
 */
export const postgresStoreForSuite = (maxConnections: number): EventStore => {
  let database: TestDatabase | undefined;
  let store: (EventStore & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    store = await createPostgresEventStore({ connectionString: database.url, maxConnections });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  return new Proxy({} as EventStore, {
    get: (_target, key) => {
      if (store === undefined) throw new Error("The suite's event store is made in beforeAll: use it inside a test.");
      const value: unknown = Reflect.get(store, key);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(store) : value;
    },
  });
};
