import { PGlite, type Transaction } from "@electric-sql/pglite";
import { SCHEMA_SQL } from "../sql/schema.ts";
import { SqlEventStore, type Query, type Row, type SqlDriver, type SqlEventStoreOptions } from "../sql/sql-event-store.ts";

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
  #stopListening = () => {};

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
    this.#stopListening = () => set.delete(onAppended);
  }

  async announce(): Promise<void> {
    for (const wake of listeners.get(this.#db) ?? []) wake();
  }

  async close(): Promise<void> {
    this.#stopListening();
    if (this.#owned) await this.#db.close();
  }
}

export interface PgliteEventStoreOptions extends SqlEventStoreOptions {
  /** A data directory, `memory://` for a throwaway store, or an open PGlite to share. */
  database: string | PGlite;
}

/** The embedded event store for `npm start` on a bare machine: the same SQL as PostgreSQL. */
export const createPgliteEventStore = async (options: PgliteEventStoreOptions): Promise<SqlEventStore> => {
  const owned = typeof options.database === "string";
  const db = typeof options.database === "string" ? await PGlite.create(options.database) : options.database;
  const driver = new PgliteDriver(db, owned);
  await driver.query(SCHEMA_SQL);
  return new SqlEventStore(driver, options);
};
