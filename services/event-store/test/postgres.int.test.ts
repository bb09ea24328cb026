import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { describe } from "vitest";
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
});
