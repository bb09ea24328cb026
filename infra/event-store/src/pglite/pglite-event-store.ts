import { PGlite, type Transaction } from "@electric-sql/pglite";
// Read models search names by substring with trigram indexes, as on a PostgreSQL server.
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { createOwningSqlEventStore } from "../sql/create-sql-event-store.ts";
import { type Query, type Row, type SqlDriver, type SqlEventStore, type SqlEventStoreOptions } from "../sql/sql-event-store.ts";

/** Statements without parameters may hold several commands (the schema), so they go through exec. */
const asQuery =
  (db: PGlite | Transaction): Query =>
  async (text, params) => {
    if (!params || params.length === 0) {
      const results = await db.exec(text);
      return (results[results.length - 1]?.rows ?? []);
    }
    return (await db.query<Row>(text, params as unknown[])).rows;
  };

/** Stores sharing one PGlite instance wake each other directly: every writer is in this process. */
const listeners = new WeakMap<PGlite, Set<() => void>>();

class PgliteDriver implements SqlDriver {
  readonly #db: PGlite;
  readonly #owned: boolean;
  readonly query: Query;
  /** This driver's wake-ups in the instance's set, removed on close. */
  readonly #mine = new Set<() => void>();

  constructor(db: PGlite, owned: boolean) {
    this.#db = db;
    this.#owned = owned;
    this.query = asQuery(db);
  }

  transaction<T>(work: (query: Query) => Promise<T>): Promise<T> {
    return this.#db.transaction((tx) => work(asQuery(tx)));
  }

  async listen(onAppended: () => void): Promise<void> {
    const set = listeners.get(this.#db) ?? new Set();
    listeners.set(this.#db, set);
    set.add(onAppended);
    this.#mine.add(onAppended);
  }

  async announce(): Promise<void> {
    for (const wake of listeners.get(this.#db) ?? []) wake();
  }

  async onNotification(channel: string, handle: (payload: string) => void): Promise<() => Promise<void>> {
    return this.#db.listen(channel, handle);
  }

  async close(): Promise<void> {
    const set = listeners.get(this.#db);
    for (const wake of this.#mine) set?.delete(wake);
    this.#mine.clear();
    if (this.#owned) await this.#db.close();
  }
}

/**
 * Opens PGlite to share between the event store (`createSqlEventStore`) and other tables of the
 * same database: only one instance may open a data directory. Given a directory (or
 * `memory://`), the driver opens PGlite and its `close()` closes it; given an open PGlite, the
 * driver borrows it and its `close()` leaves it open for whoever opened it.
 */
export const openPgliteDriver = async (database: string | PGlite): Promise<SqlDriver> =>
  typeof database === "string"
    ? new PgliteDriver(await PGlite.create(database, { extensions: { pg_trgm } }), true)
    : new PgliteDriver(database, false);

export interface PgliteEventStoreOptions extends SqlEventStoreOptions {
  /** A data directory, `memory://` for a throwaway store, or an open PGlite to share. */
  database: string | PGlite;
}

/** The embedded event store for `npm start` on a bare machine: the same SQL as PostgreSQL. */
export const createPgliteEventStore = async (options: PgliteEventStoreOptions): Promise<SqlEventStore> =>
  createOwningSqlEventStore(await openPgliteDriver(options.database), options);
