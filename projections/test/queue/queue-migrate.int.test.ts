import { openPgliteDriver, openPostgresDriver, type Query, type SqlDriver } from "@etd/event-store";
import { createTestDatabase, postgresAvailable } from "@etd/infra/test-database";
import { describe, expect, it } from "vitest";
import { physicalTable } from "../../src/engine/projection.ts";
import { folderCounts, ordersList, QUEUE_TABLES, queueProjection, searchOrders } from "../../src/queue/index.ts";
import { createScenario, MARIA, TODAY } from "./queue-scenario.ts";

const available = await postgresAvailable();
const table = (base: string) => physicalTable(queueProjection, base);
const viewer = { today: TODAY, staffId: MARIA.id };

/** Migrates, points the views at the tables, and applies a small history in batches of 7. */
const build = async (driver: SqlDriver, wrap: (query: Query) => Query = (query) => query) => {
  await driver.transaction(async (query) => {
    await queueProjection.migrate(wrap(query), table);
    for (const base of queueProjection.tables) await query(`create or replace view ${base} as select * from ${table(base)}`);
  });
  const scenario = createScenario();
  for (let i = 0; i < 30; i++) scenario.place();
  const zed = scenario.place({ first_name: "Zed", processing_mode: "standard", processing_date: TODAY, created_at: `${TODAY}T01:00:00Z` });
  scenario.assign(zed, MARIA);
  const log = scenario.log();
  for (let i = 0; i < log.length; i += 7) await driver.transaction((query) => queueProjection.apply(log.slice(i, i + 7), query, table));
  return zed;
};

const indexesOf = async (driver: SqlDriver) =>
  (await driver.query(`select indexname from pg_indexes where tablename = $1 order by 1`, [table(QUEUE_TABLES.orders)])).map((row) =>
    String(row.indexname),
  );

describe("the queue read model's tables", () => {
  it.skipIf(!available)("QUEUE-5: without pg_trgm the build still succeeds, with no search index, and search still works", async () => {
    const database = await createTestDatabase();
    const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 2 });
    try {
      const refuseExtension = (query: Query): Query => async (text, params) => {
        if (/create extension/i.test(text)) throw new Error('permission denied to create extension "pg_trgm"');
        return query(text, params);
      };
      const zed = await build(driver, refuseExtension);
      expect(await indexesOf(driver)).not.toContain(`${table(QUEUE_TABLES.orders)}_search_idx`);
      const found = await searchOrders(driver.query, { folderName: "myOrder", searchVal: "zED", start: 0, end: 10, ...viewer });
      expect(found.rows.map((row) => row.order_id)).toEqual([zed]);
    } finally {
      await driver.close();
      await database.drop();
    }
  });

  it("runs on PGlite (npm start on a bare machine) with the same indexes, trigram search included", async () => {
    const driver = await openPgliteDriver("memory://");
    try {
      const zed = await build(driver);
      expect(await indexesOf(driver)).toContain(`${table(QUEUE_TABLES.orders)}_search_idx`);
      const counts = await folderCounts(driver.query, viewer);
      expect(counts.allOrdersCount).toBe(31);
      expect(counts.myOrdersCount).toBe(1);
      const page = await ordersList(driver.query, { queueKey: "allOrder", page: 1, limit: 5, ...viewer });
      expect(page.total).toBe(31);
      expect(page.rows[0]).toMatchObject({ order_id: zed, status: "Pending", date: `14/03/2025 01:00:00`, assign_to: MARIA.name });
      const found = await searchOrders(driver.query, { folderName: "myOrder", searchVal: "zED", start: 0, end: 10, ...viewer });
      expect(found).toMatchObject({ total: 1, rows: [{ order_id: zed }] });
    } finally {
      await driver.close();
    }
  }, 60_000);
});
