export * from "./port.ts";
export type { Query, Row, SqlDriver, SqlEventStore, SqlEventStoreOptions } from "./sql/sql-event-store.ts";
export { createSqlEventStore } from "./sql/create-sql-event-store.ts";
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
export {
  CHAIN_START,
  chainHash,
  createChainVerifier,
  digestInput,
  eventDigest,
  verifyChain,
  type ChainBreak,
  type ChainedEvent,
  type ChainReport,
  type ExportedEvent,
  type VerifierOptions,
} from "./chain/event-chain.ts";
export { exportRange, exportStreams, orderStreams, readChain, readChainHead, sealLog, verifyStoredChain } from "./chain/stored-chain.ts";
export { startSealer, type Sealer } from "./chain/sealer.ts";
export { EXPORT_FORMAT, exportFile, verifyExport, type ExportHeader, type ExportTrailer, type ExportScope, type ExportVerification } from "./chain/export-file.ts";
