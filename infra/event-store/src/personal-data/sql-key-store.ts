import { randomBytes } from "node:crypto";
import { migrateTables } from "../sql/migrate-tables.ts";
import type { SqlDriver } from "../sql/sql-event-store.ts";
import { PersonalDataForgotten, type KeyStore } from "./key-store.ts";

const KEY_BYTES = 32;

/*
 * A destroyed key is overwritten with zero bytes rather than deleted: the row is the tombstone
 * that stops `keyFor` from minting a new key for a forgotten stream. The old key bytes survive
 * only as a dead row version until (auto)vacuum reclaims it, and in WAL and backups for as long
 * as those are kept: the retention of backups bounds how long an erasure takes to be complete.
 */
const SCHEMA_SQL = /* sql */ `
create table if not exists es_stream_keys (
  stream_id text primary key,
  key bytea not null check (octet_length(key) in (0, ${KEY_BYTES})),
  created_at timestamptz default now()
);
`;

/** Creates `es_stream_keys` when missing; safe when several processes start at once. */
export const migrateKeyStore = (driver: SqlDriver): Promise<void> => migrateTables(driver, SCHEMA_SQL);

export interface SqlKeyStoreOptions {
  /** Keys held in memory (default 10 000); the least recently used go first. */
  cacheSize?: number;
  /**
   * How long a cached key is trusted (default 60 s). Bounds how long another process may go on
   * using a key this one destroyed; see the caveat on `createSqlKeyStore`.
   */
  cacheTtlMs?: number;
}

const DESTROYED = "destroyed";
type Known = Buffer | typeof DESTROYED;

/** bytea travels as hex text: `pg` and PGlite agree on text, not on binary parameter types. */
const fromRow = (hex: unknown): Known =>
  typeof hex === "string" && hex.length > 0 ? Buffer.from(hex, "hex") : DESTROYED;

/** A small LRU with expiry. A Map iterates in insertion order, so its first key is the oldest. */
class KeyCache {
  readonly #entries = new Map<string, { known: Known; until: number }>();
  readonly #size: number;
  readonly #ttlMs: number;

  constructor(size: number, ttlMs: number) {
    this.#size = size;
    this.#ttlMs = ttlMs;
  }

  get(streamId: string): Known | undefined {
    const entry = this.#entries.get(streamId);
    if (!entry) return undefined;
    this.#entries.delete(streamId);
    if (entry.until <= Date.now()) return undefined;
    this.#entries.set(streamId, entry);
    return entry.known;
  }

  set(streamId: string, known: Known): void {
    if (this.#size <= 0) return;
    this.#entries.delete(streamId);
    this.#entries.set(streamId, { known, until: Date.now() + this.#ttlMs });
    while (this.#entries.size > this.#size) this.#entries.delete(this.#entries.keys().next().value!);
  }
}

/**
 * The SQL key store also lets a new stream's key be written by the statement that appends the
 * stream's first events (see `openSealedSqlEventStore`): the key then commits with the data it
 * seals or not at all, in one commit where `keyFor` and the append take two.
 */
export interface SqlKeyStore extends KeyStore {
  /** Whether this process holds the stream's key (or its tombstone) in memory: keyFor asks nothing. */
  isCached(streamId: string): boolean;
  /** A key for a stream that has none yet, to seal with before the append stores it. */
  newKey(): Buffer;
  /** Caches a key an append stored, once committed: never before, lest a rolled-back one seal. */
  remember(streamId: string, key: Buffer): void;
}

/**
 * The key store in the events' database (`es_stream_keys`), on a driver shared with the event
 * store. Runs its migration first. It does not own the driver and has nothing to close.
 *
 * Multi-process caveat: the cache is per process. `destroy` clears this process's entry at once,
 * but another process that has the key cached keeps decrypting (and encrypting) with it until
 * its entry expires (`cacheTtlMs`). Personal data it encrypts in that window is unreadable
 * afterwards, as it should be; what it shows in that window is the staleness to accept, or set
 * `cacheTtlMs` to 0 where a destroyed key must stop working everywhere at once.
 */
export const createSqlKeyStore = async (driver: SqlDriver, options: SqlKeyStoreOptions = {}): Promise<SqlKeyStore> => {
  await migrateKeyStore(driver);
  const cache = new KeyCache(options.cacheSize ?? 10_000, options.cacheTtlMs ?? 60_000);

  const lookup = async (streamId: string): Promise<Known | undefined> => {
    const cached = cache.get(streamId);
    if (cached) return cached;
    const [row] = await driver.query(
      "select encode(key, 'hex') as key from es_stream_keys where stream_id = $1",
      [streamId],
      "es_stream_key",
    );
    if (!row) return undefined; // not cached: another process may create it any moment
    const known = fromRow(row.key);
    cache.set(streamId, known);
    return known;
  };

  return {
    isCached: (streamId) => cache.get(streamId) !== undefined,
    newKey: () => randomBytes(KEY_BYTES),
    remember: (streamId, key) => cache.set(streamId, key),

    keyFor: async (streamId) => {
      let known = await lookup(streamId);
      if (!known) {
        // Two statements, not one: after waiting on a concurrent insert of the same stream, only
        // a new statement's snapshot sees the row that won.
        await driver.query(
          "insert into es_stream_keys (stream_id, key) values ($1, decode($2, 'hex')) on conflict (stream_id) do nothing",
          [streamId, randomBytes(KEY_BYTES).toString("hex")],
          "es_stream_key_create",
        );
        known = await lookup(streamId);
      }
      if (!known) throw new Error(`es_stream_keys holds no row for ${streamId} right after inserting it`);
      if (known === DESTROYED) throw new PersonalDataForgotten(streamId);
      return known;
    },

    existingKey: async (streamId) => {
      const known = await lookup(streamId);
      return known === DESTROYED ? undefined : known;
    },

    destroy: async (streamId) => {
      await driver.query(
        `insert into es_stream_keys (stream_id, key) values ($1, ''::bytea)
           on conflict (stream_id) do update set key = excluded.key`,
        [streamId],
        "es_stream_key_destroy",
      );
      cache.set(streamId, DESTROYED);
    },
  };
};
