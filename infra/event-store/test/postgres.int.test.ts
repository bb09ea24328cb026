import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createPostgresEventStore } from "../src/index.ts";
import { eventStoreContract } from "./contract.ts";

const available = await postgresAvailable();

describe.skipIf(!available)("PostgreSQL adapter", () => {
  let database: Promise<TestDatabase> | undefined;
  eventStoreContract("PostgreSQL (pg)", () => {
    database ??= createTestDatabase();
    return {
      open: async (options) =>
        createPostgresEventStore({ connectionString: (await database!).url, maxConnections: 20, pollIntervalMs: 200, ...options }),
      holdsTransactions: true,
      writers: 16,
      teardown: async () => (await database!).drop(),
    };
  });

  it("refuses an event id already stored in another stream, and writes nothing", async () => {
    const own = await createTestDatabase();
    const store = await createPostgresEventStore({ connectionString: own.url, maxConnections: 2 });
    try {
      const one = { eventId: randomUUID(), type: "OrderPlaced", schemaVersion: 1, data: {}, metadata: {} };
      await store.append("order-1", [one], { expectedVersion: "no_stream" });
      await expect(store.append("order-2", [one], { expectedVersion: "any" })).rejects.toThrow(`event ${one.eventId} is already stored in stream order-1`);
      await expect(store.append("order-2", [one], { expectedVersion: "no_stream" })).rejects.toThrow("already stored in stream order-1");
      expect(await store.readStream("order-2")).toEqual([]);
    } finally {
      await store.close();
      await own.drop();
    }
  });
});
