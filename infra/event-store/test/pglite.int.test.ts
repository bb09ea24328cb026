import { PGlite } from "@electric-sql/pglite";
import { createPgliteEventStore } from "../src/index.ts";
import { eventStoreContract } from "./contract.ts";

// One in-memory database for the suite: every store opened on it shares the one connection.
let db: Promise<PGlite> | undefined;

eventStoreContract("PGlite", () => {
  db ??= PGlite.create("memory://");
  return {
    open: async (options) => createPgliteEventStore({ database: await db!, pollIntervalMs: 200, ...options }),
    holdsTransactions: true,
    writers: 16,
    teardown: async () => (await db!).close(),
  };
});
