import type { EventStore } from "../port.ts";
import { createSqlEventStore } from "../sql/create-sql-event-store.ts";
import { migrateTables } from "../sql/migrate-tables.ts";
import type { Query, SqlDriver, SqlEventStoreOptions } from "../sql/sql-event-store.ts";
import { encryptingEventStore, sealEvents, type AppendToNewStream, type EncryptingEventStore } from "./encrypting-event-store.ts";
import { createSqlKeyStore } from "./sql-key-store.ts";

export interface SealedSqlEventStore extends EncryptingEventStore {
  /**
   * One database transaction around `work`, with a sealing store bound to it (see
   * `SqlEventStore.transaction`). A stream's key is created outside the transaction: one rolled
   * back can leave a key that seals nothing, never data without its key.
   */
  transaction<T>(work: (store: EventStore, query: Query) => Promise<T>): Promise<T>;
}

/** Raised by es_append_with_key when the stream has a key already (or its tombstone). */
const STREAM_HAS_KEY = "ES001";

/*
 * A new stream's first personal data (a placed order, a mail's first attempt) and the stream's
 * key in one statement, so one round trip and one commit. es_append runs first, so the stream's
 * lock is still taken before the transaction has an id (schema.ts); a stream found to have a key
 * already fails the whole statement: its events were sealed with another key and are not stored.
 */
const APPEND_WITH_KEY_SQL = /* sql */ `
create or replace function es_append_with_key(p_stream_id text, p_expected bigint, p_events jsonb, p_key text)
returns table (outcome text, version bigint, tx xid8, seq bigint)
language plpgsql as $$
begin
  select a.outcome, a.version, a.tx, a.seq into outcome, version, tx, seq
    from es_append(p_stream_id, p_expected, p_events) a;
  if outcome = 'appended' then
    insert into es_stream_keys (stream_id, key) values (p_stream_id, decode(p_key, 'hex'))
      on conflict (stream_id) do nothing;
    if not found then
      raise exception 'stream % has a key already', p_stream_id using errcode = '${STREAM_HAS_KEY}';
    end if;
  end if;
  return next;
end;
$$;
`;

/**
 * The event store every service uses on a SQL database: personal data sealed per stream with the
 * keys kept in the same database. The driver stays the caller's to close.
 */
export const openSealedSqlEventStore = async (driver: SqlDriver, options: SqlEventStoreOptions = {}): Promise<SealedSqlEventStore> => {
  const store = await createSqlEventStore(driver, options);
  const keys = await createSqlKeyStore(driver);
  await migrateTables(driver, APPEND_WITH_KEY_SQL);
  const appendToNewStream: AppendToNewStream = async (streamId, events, appendOptions) => {
    // A key this process knows costs no query: the usual path is then one statement too.
    if (keys.isCached(streamId)) return undefined;
    const key = keys.newKey();
    try {
      const appended = await store.appendThrough("es_append_with_key", streamId, sealEvents(key, streamId, events), appendOptions, [key.toString("hex")]);
      // A duplicate (a retried append) stored nothing of ours: its events are under the stream's own key.
      if (!appended.duplicate) keys.remember(streamId, key);
      return appended;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === STREAM_HAS_KEY) return undefined;
      throw error;
    }
  };
  return {
    ...encryptingEventStore(store, keys, appendToNewStream),
    transaction: (work) => store.transaction((bound, query) => work(encryptingEventStore(bound, keys), query)),
  };
};
