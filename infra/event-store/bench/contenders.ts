/**
 * P1's three contenders behind one shape: open on a fresh database with a pool of N connections,
 * append one event at an exact expected version, name the table holding the events, close.
 * Nothing here turns durability down: every commit waits for its WAL flush as the server is set.
 */
import { getPostgreSQLEventStore } from "@event-driven-io/emmett-postgresql";
import pg from "pg";
import { startSealer } from "../src/chain/sealer.ts";
import { createPostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import type { AppendOne } from "./workload.ts";

export interface OpenContender {
  readonly append: AppendOne;
  /** Where the events land, to check afterwards that every append left exactly one row. */
  readonly table: string;
  close(): Promise<void>;
}

export const CONTENDERS = {
  /**
   * Ours: `es_append`, one statement (one round trip) per append, autocommit; with the sealer
   * extending the global hash chain every 200 ms on a connection of its own, as in production.
   */
  ours: async (connectionString: string, poolSize: number): Promise<OpenContender> => {
    const store = await createPostgresEventStore({ connectionString, maxConnections: poolSize });
    const sealing = new pg.Client({ connectionString });
    await sealing.connect();
    const sealer = startSealer({ query: async (text, params) => (await sealing.query<Record<string, unknown>>(text, params as unknown[])).rows });
    return {
      append: async (streamId, expectedVersion, event) =>
        (await store.append(streamId, [event], { expectedVersion })).nextVersion,
      table: "es_events",
      close: async () => {
        await sealer.stop();
        await sealing.end();
        await store.close();
      },
    };
  },

  /**
   * Ours without the hash chains (P13's baseline, issue 14): the same store with its stream-hash
   * function replaced, after migration, by one that hashes nothing (zero hashes), and no sealer.
   */
  unchained: async (connectionString: string, poolSize: number): Promise<OpenContender> => {
    const store = await createPostgresEventStore({ connectionString, maxConnections: poolSize });
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query(`create or replace function es_stream_hashes(p_stream_id text, p_version bigint, p_previous bytea, p_events jsonb, p_at timestamptz)
        returns bytea[] language sql immutable as $f$ select array_fill(es_chain_start(), array[jsonb_array_length(p_events)]) $f$`);
    } finally {
      await client.end();
    }
    return {
      append: async (streamId, expectedVersion, event) =>
        (await store.append(streamId, [event], { expectedVersion })).nextVersion,
      table: "es_events",
      close: () => store.close(),
    };
  },

  /**
   * Emmett 0.42's PostgreSQL event store through its public API, on a `pg.Pool` of the same size
   * handed in through `connectionOptions.pool` (its own default pool would have pg's 10). The
   * schema is migrated before the clock starts; the event id goes in as Emmett's `messageId`.
   */
  emmett: async (connectionString: string, poolSize: number): Promise<OpenContender> => {
    const pool = new pg.Pool({ connectionString, max: poolSize });
    const store = getPostgreSQLEventStore(connectionString, { connectionOptions: { pool } });
    await store.schema.migrate();
    return {
      append: async (streamId, expectedVersion, event) => {
        const result = await store.appendToStream(
          streamId,
          [{ type: event.type, data: { ...event.data }, metadata: { messageId: event.eventId, ...event.metadata } }],
          { expectedStreamVersion: expectedVersion },
        );
        return result.nextExpectedStreamVersion;
      },
      table: "emt_messages",
      close: async () => {
        await store.close();
        await pool.end();
      },
    };
  },

  /** The ceiling: a plain INSERT of the same row into a table with no index, key or lock. */
  raw: async (connectionString: string, poolSize: number): Promise<OpenContender> => {
    const pool = new pg.Pool({ connectionString, max: poolSize });
    await pool.query(`create table raw_events (
      stream_id text, stream_position bigint, event_id uuid, type text, schema_version integer,
      data jsonb, metadata jsonb)`);
    return {
      append: async (streamId, expectedVersion, event) => {
        const next = expectedVersion + 1n;
        await pool.query({
          name: "raw_insert",
          text: "insert into raw_events values ($1, $2, $3, $4, $5, $6, $7)",
          values: [
            streamId,
            next.toString(),
            event.eventId,
            event.type,
            event.schemaVersion,
            JSON.stringify(event.data),
            JSON.stringify(event.metadata),
          ],
        });
        return next;
      },
      table: "raw_events",
      close: () => pool.end(),
    };
  },
} as const;

export type ContenderName = keyof typeof CONTENDERS;

export const isContenderName = (name: string): name is ContenderName => Object.hasOwn(CONTENDERS, name);
