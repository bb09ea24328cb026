import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSqlEventStore, openPostgresDriver, sealLog, verifyStoredChain, type SqlDriver } from "../src/index.ts";
import { fillLog } from "./support/fill-log.ts";

/*
 * Issue 14 must-show: an untouched log of 1,000,000 events verifies clean. The log is written
 * through es_append (10,000 streams of 100 events), sealed by es_seal as the sealer would, and
 * walked by the same verifier `npm run audit:verify` runs.
 */

const available = await postgresAvailable();
if (!available) console.warn("[skip] chain-scale: PostgreSQL is not reachable (TEST_DATABASE_URL); the 1,000,000-event verification did not run");

describe.skipIf(!available)("issue 14: a log of 1,000,000 events", () => {
  let database: TestDatabase;
  let driver: SqlDriver;

  beforeAll(async () => {
    database = await createTestDatabase();
    driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 2 });
    await createSqlEventStore(driver);
    const started = performance.now();
    await fillLog(driver, 10_000, 100);
    console.log(`[chain-scale] 1,000,000 events appended in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 300_000);

  afterAll(async () => {
    await driver?.close();
    await database?.drop();
  });

  it("is sealed whole, and verifies clean in the database", async () => {
    let started = performance.now();
    expect(await sealLog(driver)).toBe(1_000_000);
    console.log(`[chain-scale] sealed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    const report = await verifyStoredChain(driver);
    console.log(`[chain-scale] verified in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(report).toMatchObject({ checked: 1_000_000, sealed: 1_000_000, firstBreak: undefined });
    const [head] = await driver.query(`select encode(hash, 'hex') as hash from es_chain_head`);
    expect(report.head).toBe(head!.hash);
  }, 300_000);
});
