export * from "./port.ts";
export { createPostgresEventStore, type PostgresEventStoreOptions } from "./postgres/postgres-event-store.ts";
export { createPgliteEventStore, type PgliteEventStoreOptions } from "./pglite/pglite-event-store.ts";
export { createKurrentDbEventStore, type KurrentDbEventStoreOptions } from "./kurrentdb/kurrentdb-event-store.ts";
