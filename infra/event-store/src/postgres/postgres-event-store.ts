import pg from "pg";
import { createOwningSqlEventStore } from "../sql/create-sql-event-store.ts";
import { type Query, type Row, type SqlDriver, type SqlEventStore, type SqlEventStoreOptions } from "../sql/sql-event-store.ts";

const CHANNEL = "es_appended";

export interface PostgresDriverOptions {
  connectionString: string;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
  /**
   * A transaction left open holds every reader's horizon back; PostgreSQL ends one that sits
   * idle longer than this (default 60 s).
   */
  idleInTransactionTimeoutMs?: number;
}

export interface PostgresEventStoreOptions extends SqlEventStoreOptions, PostgresDriverOptions {}

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
  #listening: Promise<void> | undefined;
  readonly #wakeups = new Set<() => void>();
  #closed = false;
  readonly query: Query;

  constructor(pool: pg.Pool, connectionString: string) {
    this.#pool = pool;
    this.#connectionString = connectionString;
    this.query = asQuery(pool);
    // pool.end() resolves before its connections have finished closing: what fails after close
    // (e.g. the database being dropped) is no news.
    pool.on("error", (error) => {
      // The pool replaces the connection; one line says so (the error object drags the client along).
      if (!this.#closed) console.error(`event store: an idle connection failed and is replaced: ${error.message}`);
    });
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

  /**
   * One dedicated connection LISTENs for every store on this driver; it reconnects after a drop,
   * and every (re)connect wakes all of them.
   */
  async listen(onAppended: () => void): Promise<void> {
    this.#wakeups.add(onAppended);
    if (!this.#listening) {
      this.#listening = this.#connectListener().catch((error: unknown) => {
        this.#listening = undefined;
        throw error;
      });
    }
    await this.#listening;
    onAppended();
  }

  #wakeAll = () => {
    for (const wake of this.#wakeups) wake();
  };

  async #connectListener(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.#connectionString });
    client.on("notification", this.#wakeAll);
    client.on("error", () => {
      client.end().catch(() => undefined);
      if (this.#listener === client) this.#listener = undefined;
      setTimeout(() => void this.#connectListener().catch(() => undefined), 1000);
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    if (this.#closed) {
      await client.end();
      return;
    }
    this.#listener = client;
    this.#wakeAll();
  }

  /**
   * One connection per channel for the whole process, shared by every handler on it: a listener
   * per caller would let callers (a query waiting for its own write, a visitor's download) open
   * connections without limit. The connection stays until close(); after a drop it reconnects,
   * and the callers' polling covers the gap.
   */
  async onNotification(channel: string, handle: (payload: string) => void): Promise<() => Promise<void>> {
    let listening = this.#channels.get(channel);
    if (listening === undefined) {
      const handlers = new Set<(payload: string) => void>();
      listening = { handlers, ready: this.#listenOn(channel, handlers) };
      this.#channels.set(channel, listening);
      // A first connection that fails is forgotten, so that the next caller tries again.
      listening.ready.catch(() => this.#channels.delete(channel));
    }
    listening.handlers.add(handle);
    try {
      await listening.ready;
    } catch (error) {
      listening.handlers.delete(handle);
      throw error;
    }
    const { handlers } = listening;
    return async () => {
      handlers.delete(handle);
    };
  }

  readonly #channels = new Map<string, { readonly handlers: Set<(payload: string) => void>; readonly ready: Promise<void> }>();
  readonly #channelClients = new Set<pg.Client>();

  async #listenOn(channel: string, handlers: ReadonlySet<(payload: string) => void>): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.#connectionString });
    client.on("notification", (message) => {
      if (message.channel !== channel) return;
      for (const handle of handlers) handle(message.payload ?? "");
    });
    client.on("error", () => {
      this.#channelClients.delete(client);
      client.end().catch(() => undefined);
      setTimeout(() => void this.#listenOn(channel, handlers).catch(() => undefined), 1000);
    });
    await client.connect();
    await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    this.#channelClients.add(client);
    if (this.#closed) await client.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const client of this.#channelClients) await client.end().catch(() => undefined);
    await this.#listener?.end().catch(() => undefined);
    await this.#pool.end();
  }
}

/**
 * Opens a pool on a PostgreSQL database, to share between the event store (`createSqlEventStore`)
 * and other tables of the same database. The caller owns it and closes it last.
 */
export const openPostgresDriver = async (options: PostgresDriverOptions): Promise<SqlDriver> => {
  const timeout = options.idleInTransactionTimeoutMs ?? 60_000;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    options: `-c idle_in_transaction_session_timeout=${timeout}`,
  });
  return new PostgresDriver(pool, options.connectionString);
};

/** The production event store: PostgreSQL through `pg`, on a pool of its own that it closes. */
export const createPostgresEventStore = async (options: PostgresEventStoreOptions): Promise<SqlEventStore> =>
  createOwningSqlEventStore(await openPostgresDriver(options), options);
