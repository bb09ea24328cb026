import { migrateTables } from "./migrate-tables.ts";
import { SCHEMA_SQL } from "./schema.ts";
import { SqlEventStore, type SqlDriver, type SqlEventStoreOptions } from "./sql-event-store.ts";

/** Creates the tables and function when missing; safe when several processes start at once. */
export const migrateEventStore = (driver: SqlDriver): Promise<void> => migrateTables(driver, SCHEMA_SQL);

/**
 * The driver as seen by a store that borrows it: closing the store leaves the driver open for
 * its other users, and only silences this store's wake-ups (the driver keeps one LISTEN for all).
 */
const borrowed = (driver: SqlDriver): SqlDriver => {
  let closed = false;
  const listen = driver.listen?.bind(driver);
  const announce = driver.announce?.bind(driver);
  return {
    query: (text, params, name) => driver.query(text, params, name),
    transaction: (work) => driver.transaction(work),
    onNotification: (channel, handle) => driver.onNotification(channel, handle),
    ...(listen
      ? {
          listen: (onAppended: () => void) =>
            listen(() => {
              if (!closed) onAppended();
            }),
        }
      : {}),
    ...(announce ? { announce } : {}),
    close: async () => {
      closed = true;
    },
  };
};

/**
 * An event store on a driver the caller opened (`openPostgresDriver`, `openPgliteDriver`) and
 * shares with other tables of the same database. Runs the event store's migration first.
 *
 * Ownership: the caller owns the driver. Closing this store does NOT close the driver; close the
 * driver yourself once every store and table on it is done.
 */
export const createSqlEventStore = async (
  driver: SqlDriver,
  options: SqlEventStoreOptions = {},
): Promise<SqlEventStore> => {
  await migrateEventStore(driver);
  return new SqlEventStore(borrowed(driver), options);
};

/** For the adapters' own constructors: a store that owns its driver and closes it with itself. */
export const createOwningSqlEventStore = async (
  driver: SqlDriver,
  options: SqlEventStoreOptions,
): Promise<SqlEventStore> => {
  try {
    await migrateEventStore(driver);
  } catch (error) {
    await driver.close().catch(() => undefined);
    throw error;
  }
  return new SqlEventStore(driver, options);
};
