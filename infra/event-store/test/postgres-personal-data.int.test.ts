import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, describe } from "vitest";
import { createSqlEventStore, createSqlKeyStore, encryptingEventStore, openPostgresDriver, type SqlDriver } from "../src/index.ts";
import { eventStoreContract } from "./contract.ts";
import { personalDataSuite } from "./personal-data.ts";
import { sharedDriverSuite } from "./shared-driver.ts";

const available = await postgresAvailable();

describe.skipIf(!available)("PostgreSQL: personal data and shared drivers", () => {
  let database: Promise<TestDatabase> | undefined;
  afterAll(async () => (await database)?.drop(), 60_000);
  const openDriver = async () => openPostgresDriver({ connectionString: (await database!).url, maxConnections: 20 });

  personalDataSuite("PostgreSQL (pg)", () => {
    database ??= createTestDatabase();
    return { openDriver };
  });

  sharedDriverSuite("PostgreSQL (pg)", () => {
    database ??= createTestDatabase();
    return { openDriver };
  });

  // The decorator is an event store like any other: the whole contract holds through it.
  let shared: Promise<SqlDriver> | undefined;
  eventStoreContract("PostgreSQL through encryptingEventStore, on one shared driver", () => {
    database ??= createTestDatabase();
    shared ??= openDriver();
    return {
      open: async (options) => {
        const driver = await shared!;
        return encryptingEventStore(
          await createSqlEventStore(driver, { pollIntervalMs: 200, ...options }),
          await createSqlKeyStore(driver),
        );
      },
      holdsTransactions: true,
      writers: 16,
      teardown: async () => (await shared!).close(),
    };
  });
});
