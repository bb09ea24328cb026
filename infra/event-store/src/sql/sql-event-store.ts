import { Doorbell, followLog } from "../follow-log.ts";
import {
  START,
  WrongExpectedVersion,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type ReadStreamOptions,
  type RecordedEvent,
} from "../port.ts";
import { HORIZON } from "./schema.ts";

export type Row = Record<string, unknown>;
export type Query = (text: string, params?: readonly unknown[], name?: string) => Promise<Row[]>;

/** What the SQL event store needs of a database: PostgreSQL through `pg`, or PGlite. */
export interface SqlDriver {
  query: Query;
  /** Runs `work` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(work: (query: Query) => Promise<T>): Promise<T>;
  /** Wake-ups from other processes' appends; absent where only this process writes (PGlite). */
  listen?(onAppended: () => void): Promise<void>;
  /** Tells other processes that events were appended (coalesced by the caller). */
  announce?(): Promise<void>;
  /**
   * Receives the payloads of `pg_notify(channel, …)` from any session of this database (for
   * example the projectors' progress). Resolves once listening; the returned function stops it.
   */
  onNotification(channel: string, handle: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface SqlEventStoreOptions {
  pollIntervalMs?: number;
  /**
   * Runs inside each append's transaction, after the events are inserted and before COMMIT.
   * Only tests set it, to hold transactions open and provoke out-of-order commits.
   */
  beforeCommit?: () => Promise<void>;
}

const EXPECTED_CODE: Record<"any" | "stream_exists" | "no_stream", bigint> = {
  any: -1n,
  stream_exists: -2n,
  no_stream: 0n,
};

const COLUMNS = `stream_id, stream_position::text as stream_position, transaction_id::text as tx,
  global_position::text as seq, event_id::text as event_id, type, schema_version, data, metadata, recorded_at`;

const toRecorded = (row: Row): RecordedEvent => ({
  streamId: row.stream_id as string,
  streamPosition: BigInt(row.stream_position as string),
  position: { tx: BigInt(row.tx as string), seq: BigInt(row.seq as string) },
  eventId: row.event_id as string,
  type: row.type as string,
  schemaVersion: Number(row.schema_version),
  data: row.data as RecordedEvent["data"],
  metadata: row.metadata as RecordedEvent["metadata"],
  recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at as string),
});

/** A driver for one open transaction: its statements run on the transaction's connection. */
const boundTo = (query: Query): SqlDriver => ({
  query,
  transaction: () => Promise.reject(new Error("transactions do not nest")),
  onNotification: () => Promise.reject(new Error("a transaction cannot listen")),
  close: async () => undefined,
});

/** The event store on PostgreSQL's SQL, whichever engine runs it. */
export class SqlEventStore implements EventStore {
  readonly #driver: SqlDriver;
  readonly #options: SqlEventStoreOptions;
  readonly #doorbell = new Doorbell();
  #listening = false;
  #announcing: Promise<void> | undefined;
  #announceAgain = false;

  constructor(driver: SqlDriver, options: SqlEventStoreOptions = {}) {
    this.#driver = driver;
    this.#options = options;
  }

  append(streamId: string, events: readonly NewEvent[], options: { readonly expectedVersion: ExpectedVersion }): Promise<AppendResult> {
    return this.appendThrough("es_append", streamId, events, options);
  }

  /**
   * Appends as `append` does, through `fn`: es_append itself, or a function of the same result
   * that takes es_append's three arguments, then `extra`, and writes more in the same statement
   * (the sealed store's new stream with its key: one commit for both). `fn` is a constant name.
   */
  async appendThrough(
    fn: string,
    streamId: string,
    events: readonly NewEvent[],
    { expectedVersion }: { readonly expectedVersion: ExpectedVersion },
    extra: readonly unknown[] = [],
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error("append needs at least one event");
    const expected = typeof expectedVersion === "bigint" ? expectedVersion : EXPECTED_CODE[expectedVersion];
    const batch = JSON.stringify(
      events.map((e) => ({ id: e.eventId, type: e.type, v: e.schemaVersion, data: e.data, metadata: e.metadata })),
    );
    const args = ["$1", "$2", "$3::jsonb", ...extra.map((_, i) => `$${i + 4}`)].join(", ");
    const sql = `select outcome, version::text as version, tx::text as tx, seq::text as seq from ${fn}(${args})`;
    const params = [streamId, expected.toString(), batch, ...extra];
    const hold = this.#options.beforeCommit;
    const [row] = hold
      ? await this.#driver.transaction(async (query) => {
          const rows = await query(sql, params);
          await hold();
          return rows;
        })
      : await this.#driver.query(sql, params, fn);
    if (!row) throw new Error("es_append returned no row");
    const version = BigInt(row.version as string);
    if (row.outcome === "conflict") throw new WrongExpectedVersion(streamId, expectedVersion, version);
    if (row.outcome === "appended") this.#ring();
    return {
      nextVersion: version,
      position: { tx: BigInt(row.tx as string), seq: BigInt(row.seq as string) },
      duplicate: row.outcome === "duplicate",
    };
  }

  /**
   * Runs `work` in one database transaction with a store bound to it: what it appends commits or
   * rolls back together with the work's own writes through `query`. For rules that span a stream
   * and another table of the same database (a staff account's credentials and its events). The
   * bound store reads and appends only; its readers see the events once the transaction commits.
   */
  async transaction<T>(work: (store: EventStore, query: Query) => Promise<T>): Promise<T> {
    let appended = false;
    const result = await this.#driver.transaction(async (query) => {
      const bound = new SqlEventStore(boundTo(query));
      const store: EventStore = {
        append: async (streamId, events, options) => {
          const outcome = await bound.append(streamId, events, options);
          appended ||= !outcome.duplicate;
          return outcome;
        },
        readStream: (streamId, options) => bound.readStream(streamId, options),
        readAll: (options) => bound.readAll(options),
        subscribe: () => {
          throw new Error("a store bound to a transaction cannot subscribe");
        },
        headPosition: () => bound.headPosition(),
        horizonAgeSeconds: () => bound.horizonAgeSeconds(),
        close: async () => undefined,
      };
      return work(store, query);
    });
    if (appended) this.#ring();
    return result;
  }

  async readStream(streamId: string, { from = 1n, to }: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const rows = await this.#driver.query(
      `select ${COLUMNS} from es_events
        where stream_id = $1 and stream_position >= $2 and ($3::bigint is null or stream_position <= $3::bigint)
        order by es_events.stream_position`,
      [streamId, from.toString(), to === undefined ? null : to.toString()],
      "es_read_stream",
    );
    return rows.map(toRecorded);
  }

  async readAll({ after = START, limit }: { after?: GlobalPosition; limit: number }): Promise<RecordedEvent[]> {
    const rows = await this.#driver.query(
      `select ${COLUMNS} from es_events
        where ${HORIZON} and (transaction_id, global_position) > ($1::xid8, $2::bigint)
        order by transaction_id, global_position
        limit $3`,
      [after.tx.toString(), after.seq.toString(), limit],
      "es_read_all",
    );
    return rows.map(toRecorded);
  }

  subscribe(options: Parameters<EventStore["subscribe"]>[0]) {
    return followLog(
      {
        readAll: (after, limit) => this.readAll({ after, limit }),
        doorbell: this.#doorbell,
        pollIntervalMs: this.#options.pollIntervalMs ?? 500,
        onStart: () => this.#listen(),
      },
      options,
    );
  }

  async headPosition(): Promise<GlobalPosition> {
    const [row] = await this.#driver.query(
      `select transaction_id::text as tx, global_position::text as seq from es_events
        where ${HORIZON} order by transaction_id desc, global_position desc limit 1`,
    );
    return row ? { tx: BigInt(row.tx as string), seq: BigInt(row.seq as string) } : START;
  }

  async horizonAgeSeconds(): Promise<number> {
    const [row] = await this.#driver.query(
      `select coalesce(extract(epoch from clock_timestamp() - min(xact_start)), 0)::float8 as age
         from pg_stat_activity where backend_xid is not null and pid <> pg_backend_pid()`,
    );
    return Number(row?.age ?? 0);
  }

  async close(): Promise<void> {
    await this.#announcing;
    await this.#driver.close();
  }

  /** Wakes this process's subscribers at once, and other processes' through a coalesced NOTIFY. */
  #ring(): void {
    this.#doorbell.ring();
    const announce = this.#driver.announce?.bind(this.#driver);
    if (!announce) return;
    if (this.#announcing) {
      this.#announceAgain = true;
      return;
    }
    // One NOTIFY in flight at a time: NOTIFY serialises commits, so appends never carry it.
    const loop = async () => {
      do {
        this.#announceAgain = false;
        await announce().catch((error: unknown) => console.error("event store: NOTIFY failed", error));
      } while (this.#announceAgain);
      this.#announcing = undefined;
    };
    this.#announcing = loop();
  }

  #listen(): void {
    if (this.#listening || !this.#driver.listen) return;
    this.#listening = true;
    this.#driver.listen(() => this.#doorbell.ring()).catch((error: unknown) => {
      // Polling still delivers everything; only the wake-up latency suffers.
      console.error("event store: LISTEN failed, falling back to polling", error);
    });
  }
}
