import type { EventStore } from "../port.ts";
import { createSqlEventStore } from "../sql/create-sql-event-store.ts";
import type { Query, SqlDriver, SqlEventStoreOptions } from "../sql/sql-event-store.ts";
import { encryptingEventStore, type EncryptingEventStore } from "./encrypting-event-store.ts";
import { createSqlKeyStore } from "./sql-key-store.ts";

export interface SealedSqlEventStore extends EncryptingEventStore {
  /**
   * One database transaction around `work`, with a sealing store bound to it (see
   * `SqlEventStore.transaction`). A stream's key is created outside the transaction: one rolled
   * back can leave a key that seals nothing, never data without its key.
   */
  transaction<T>(work: (store: EventStore, query: Query) => Promise<T>): Promise<T>;
}

/**
 * The event store every service uses on a SQL database: personal data sealed per stream with the
 * keys kept in the same database. The driver stays the caller's to close.
 */
export const openSealedSqlEventStore = async (driver: SqlDriver, options: SqlEventStoreOptions = {}): Promise<SealedSqlEventStore> => {
  const store = await createSqlEventStore(driver, options);
  const keys = await createSqlKeyStore(driver);
  return {
    ...encryptingEventStore(store, keys),
    transaction: (work) => store.transaction((bound, query) => work(encryptingEventStore(bound, keys), query)),
  };
};
