import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";
import {
  createPgliteEventStore,
  createSqlEventStore,
  createSqlKeyStore,
  encryptingEventStore,
  openPgliteDriver,
} from "../src/index.ts";
import { eventStoreContract } from "./contract.ts";
import { personalDataSuite } from "./personal-data.ts";
import { sharedDriverSuite } from "./shared-driver.ts";

personalDataSuite("PGlite", () => {
  const db = PGlite.create("memory://");
  return { openDriver: async () => openPgliteDriver(await db), teardown: async () => (await db).close() };
});

sharedDriverSuite("PGlite, borrowed instance", () => {
  const db = PGlite.create("memory://");
  return { openDriver: async () => openPgliteDriver(await db), teardown: async () => (await db).close() };
});

let shared: ReturnType<typeof openPgliteDriver> | undefined;
eventStoreContract("PGlite through encryptingEventStore, on one shared driver", () => {
  shared ??= openPgliteDriver("memory://");
  return {
    open: async (options) => {
      const driver = await shared!;
      return encryptingEventStore(await createSqlEventStore(driver, { pollIntervalMs: 200, ...options }), await createSqlKeyStore(driver));
    },
    holdsTransactions: true,
    writers: 16,
    teardown: async () => (await shared!).close(),
  };
});

describe("PGlite data directory, opened once for events and keys", () => {
  it("keeps events and keys in one directory across a restart, and the old wrapper still closes what it opened", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "etd-pglite-"));
    const stream = `order-${randomUUID()}`;
    const personal = { passportNumber: "P1234567Q", firstName: "Annelise" };
    try {
      const driver = await openPgliteDriver(dir);
      const store = encryptingEventStore(await createSqlEventStore(driver), await createSqlKeyStore(driver));
      await store.append(stream, [{ eventId: randomUUID(), type: "OrderPlaced", schemaVersion: 1, data: { personal }, metadata: {} }], {
        expectedVersion: "no_stream",
      });
      await store.close();
      await driver.close(); // the driver opened the directory, so it closes it

      const reopened = await openPgliteDriver(dir);
      const again = encryptingEventStore(await createSqlEventStore(reopened), await createSqlKeyStore(reopened));
      expect((await again.readStream(stream))[0]!.data.personal).toEqual(personal);
      await again.close();
      await reopened.close();

      const legacy = await createPgliteEventStore({ database: dir });
      expect(await legacy.readStream(stream)).toHaveLength(1);
      await legacy.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
