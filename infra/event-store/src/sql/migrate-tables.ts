import type { SqlDriver } from "./sql-event-store.ts";

/** Any constant shared by every process: serialises concurrent schema creation. */
const SCHEMA_LOCK = 7_340_001;

/**
 * Runs `create … if not exists` statements in one transaction under one lock shared by every
 * module: two processes starting together on an empty database (two APIs, a projector beside
 * them) would otherwise race and one fail on a catalogue unique key.
 */
export const migrateTables = async (driver: Pick<SqlDriver, "transaction">, statements: string | readonly string[]): Promise<void> => {
  await driver.transaction(async (query) => {
    await query(`select pg_advisory_xact_lock(${SCHEMA_LOCK})`);
    for (const statement of typeof statements === "string" ? [statements] : statements) await query(statement);
  });
};
