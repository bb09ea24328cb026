export * from "./port.ts";
export type { Query, Row, SqlDriver, SqlEventStore, SqlEventStoreOptions } from "./sql/sql-event-store.ts";
export { createSqlEventStore } from "./sql/create-sql-event-store.ts";
export { logBehind, type Behind } from "./sql/log-behind.ts";
export { migrateTables } from "./sql/migrate-tables.ts";
export {
  createPostgresEventStore,
  openPostgresDriver,
  type PostgresDriverOptions,
  type PostgresEventStoreOptions,
} from "./postgres/postgres-event-store.ts";
export { createPgliteEventStore, openPgliteDriver, type PgliteEventStoreOptions } from "./pglite/pglite-event-store.ts";
export { createKurrentDbEventStore, type KurrentDbEventStoreOptions } from "./kurrentdb/kurrentdb-event-store.ts";
export { PersonalDataForgotten, type KeyStore } from "./personal-data/key-store.ts";
export { createSqlKeyStore, migrateKeyStore, type SqlKeyStoreOptions } from "./personal-data/sql-key-store.ts";
export {
  encryptingEventStore,
  PersonalDataUnreadable,
  type EncryptingEventStore,
} from "./personal-data/encrypting-event-store.ts";
export { openSealedSqlEventStore, type SealedSqlEventStore } from "./personal-data/open-sealed-sql-event-store.ts";
export { verifyChain, type ChainBreak, type ChainedEvent, type ChainReport, type ExportedEvent } from "./chain/event-chain.ts";
export { exportRange, exportStreams, orderStreams, readChain, sealLog, verifyStoredChain } from "./chain/stored-chain.ts";
export { startSealer } from "./chain/sealer.ts";
export { exportFile, verifyExport } from "./chain/export-file.ts";
