import pg from "pg";
import { SCHEMA_SQL } from "../sql/schema.ts";
import { SqlEventStore, type Query, type Row, type SqlDriver, type SqlEventStoreOptions } from "../sql/sql-event-store.ts";

const CHANNEL = "es_appended";
/** Any constant shared by every process: serialises concurrent schema creation. */
const SCHEMA_LOCK = 7_340_001;

export interface PostgresEventStoreOptions extends SqlEventStoreOptions {
  connectionString: string;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
  /**
   * A transaction left open holds every reader's horizon back; PostgreSQL ends one that sits
   * idle longer than this (default 60 s).
   */
  idleInTransactionTimeoutMs?: number;
}

const asQuery =
  (client: pg.Pool | pg.PoolClient): Query =>
  async (text, params, name) => {
    const values = params as unknown[] | undefined;
    const result = await client.query<Row>(name ? { name, text, values } : { text, values });
    return result.rows;
  };

class PostgresDriver implements SqlDriver {
  readonly #pool: pg.Pool;
  readonly #connectionString: string;
  #listener: pg.Client | undefined;
  #closed = false;
  readonly query: Query;

  constructor(pool: pg.Pool, connectionString: string) {
    this.#pool = pool;
    this.#connectionString = connectionString;
    this.query = asQuery(pool);
  }

  async transaction<T>(work: (query: Query) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    // The server may end the session mid-transaction (idle timeout, shutdown): the failing query
    // rejects, and the connection is discarded rather than returned to the pool.
    let broken: Error | undefined;
    const onError = (error: Error) => {
      broken = error;
    };
    client.on("error", onError);
    try {
      await client.query("begin");
      const result = await work(asQuery(client));
      await client.query("commit");
      return result;
    } catch (error) {
      if (!broken) await client.query("rollback").catch(() => undefined);
      throw error;
    } finally {
      client.off("error", onError);
      client.release(broken);
    }
  }

  async announce(): Promise<void> {
    await this.#pool.query(`notify ${CHANNEL}`);
  }

  /** One dedicated connection LISTENs; it reconnects after a drop, and every reconnect wakes readers. */
  async listen(onAppended: () => void): Promise<void> {
    const connect = async (): Promise<void> => {
      if (this.#closed) return;
      const client = new pg.Client({ connectionString: this.#connectionString });
      client.on("notification", onAppended);
      client.on("error", () => {
        client.end().catch(() => undefined);
        if (this.#listener === client) this.#listener = undefined;
        setTimeout(() => void connect().catch(() => undefined), 1000);
      });
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      if (this.#closed) {
        await client.end();
        return;
      }
      this.#listener = client;
      onAppended();
    };
    await connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#listener?.end().catch(() => undefined);
    await this.#pool.end();
  }
}

/** Creates the tables and function when missing; safe when several processes start at once. */
export const migratePostgres = async (driver: SqlDriver): Promise<void> => {
  await driver.transaction(async (query) => {
    await query(`select pg_advisory_xact_lock(${SCHEMA_LOCK})`);
    await query(SCHEMA_SQL);
  });
};

/** The production event store: PostgreSQL through `pg`. */
export const createPostgresEventStore = async (options: PostgresEventStoreOptions): Promise<SqlEventStore> => {
  const timeout = options.idleInTransactionTimeoutMs ?? 60_000;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    options: `-c idle_in_transaction_session_timeout=${timeout}`,
  });
  pool.on("error", (error) => console.error("event store: idle connection failed", error));
  const driver = new PostgresDriver(pool, options.connectionString);
  await migratePostgres(driver);
  return new SqlEventStore(driver, options);
};
