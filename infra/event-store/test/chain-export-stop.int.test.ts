import { randomUUID } from "node:crypto";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSqlEventStore, exportRange, openPostgresDriver, type SqlDriver } from "../src/index.ts";

/*
 * Issue 28's second attacker review: an export reads the log a page ahead of the one it hands
 * over. A client that dropped the download left that read running after the export had ended, and
 * its member's export slot, counted until the export ends, was free again while the database still
 * worked: dropped downloads in a row stacked up reads. An export stopped early now ends only once
 * the read it asked for ahead is over.
 */

const available = await postgresAvailable();

describe.skipIf(!available)("issue 28 review: an export stopped early", () => {
  let database: TestDatabase;
  let driver: SqlDriver;

  beforeAll(async () => {
    database = await createTestDatabase();
    driver = await openPostgresDriver({ connectionString: database.url });
    const store = await createSqlEventStore(driver);
    // More than one page of an export (1,000 events), so that a page is read ahead.
    for (let stream = 0; stream < 2; stream++) {
      const events = Array.from({ length: 1000 }, (_, n) => ({ eventId: randomUUID(), type: "RemarkAdded", schemaVersion: 1, data: { n }, metadata: {} }));
      await store.append(`order-${stream}`, events, { expectedVersion: "no_stream" });
    }
  }, 120_000);

  afterAll(async () => {
    await driver?.close();
    await database?.drop();
  });

  it("ends only once the page it was reading ahead is read: nothing of it still runs", async () => {
    let running = 0;
    const counted: Pick<SqlDriver, "query"> = {
      query: async (sql, params) => {
        running += 1;
        try {
          return await driver.query(sql, params);
        } finally {
          running -= 1;
        }
      },
    };
    const events = exportRange(counted, "2000-01-01T00:00:00Z", "2100-01-01T00:00:00Z")[Symbol.asyncIterator]();
    expect((await events.next()).done).toBe(false);
    // The first page is handed over and the next one asked for: the client goes away.
    expect(running).toBeGreaterThan(0);
    await events.return(undefined);
    expect(running).toBe(0);
  });
});
