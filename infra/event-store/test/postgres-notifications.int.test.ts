import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresDriver, type SqlDriver } from "../src/index.ts";

/*
 * `onNotification` on PostgreSQL: every caller waiting for a notification (a staff query waiting
 * for its own write, a traveller's download waiting for its history row) shares one LISTEN
 * connection per channel. A connection per caller would let callers open backends without limit
 * until the database refuses everyone (issue 13 review).
 */

const available = await postgresAvailable();

describe.skipIf(!available)("PostgreSQL notifications: one listening connection per channel", () => {
  let database: TestDatabase;
  let driver: SqlDriver;
  let probe: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 2 });
    probe = new pg.Client({ connectionString: database.url });
    await probe.connect();
  });

  afterAll(async () => {
    await probe?.end();
    await driver?.close();
    await database?.drop();
  });

  const backends = async () =>
    Number((await probe.query("select count(*)::int as n from pg_stat_activity where datname = current_database()")).rows[0].n);

  it("25 concurrent listeners on a channel cost one connection; each hears a notification, a stopped one no longer does", async () => {
    const before = await backends();
    const heard: string[][] = Array.from({ length: 25 }, () => []);
    const stops = await Promise.all(heard.map((list) => driver.onNotification("etd_test_channel", (payload) => list.push(payload))));
    expect(await backends()).toBe(before + 1);

    await probe.query("select pg_notify('etd_test_channel', 'first')");
    await expect.poll(() => heard.every((list) => list.join() === "first"), { timeout: 5000 }).toBe(true);

    await stops[0]!();
    await probe.query("select pg_notify('etd_test_channel', 'second')");
    await expect.poll(() => heard[1]!.join(), { timeout: 5000 }).toBe("first,second");
    await sleep(100);
    expect(heard[0]).toEqual(["first"]);

    // Another channel has its own connection; listening again reuses the existing one.
    const other = await driver.onNotification("etd_other_channel", () => undefined);
    const again = await driver.onNotification("etd_test_channel", () => undefined);
    expect(await backends()).toBe(before + 2);
    await Promise.all([...stops.slice(1), other, again].map((stop) => stop()));
  });
});
