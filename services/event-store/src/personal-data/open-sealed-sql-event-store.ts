import { createSqlEventStore } from "../sql/create-sql-event-store.ts";
import type { SqlDriver, SqlEventStoreOptions } from "../sql/sql-event-store.ts";
import { encryptingEventStore, type EncryptingEventStore } from "./encrypting-event-store.ts";
import { createSqlKeyStore } from "./sql-key-store.ts";

/**
 * The event store every service uses on a SQL database: personal data sealed per stream with the
 * keys kept in the same database. The driver stays the caller's to close.
 */
export const openSealedSqlEventStore = async (driver: SqlDriver, options: SqlEventStoreOptions = {}): Promise<EncryptingEventStore> =>
  encryptingEventStore(await createSqlEventStore(driver, options), await createSqlKeyStore(driver));
