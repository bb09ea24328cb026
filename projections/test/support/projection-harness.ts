import { randomUUID } from "node:crypto";
import { openPostgresDriver, type SqlDriver } from "@etd/event-store";
import { createTestDatabase, type TestDatabase } from "@etd/infra/test-database";
import type { AnyEvent, EventMetadata, WithoutMetadata } from "@etd/events";
import { physicalTable, type ProjectedEvent, type Projection } from "../../src/engine/projection.ts";

/*
 * Runs one projection over hand-made events on a throwaway PostgreSQL database, without the
 * engine: migrate its tables, point the views at them, apply the events in batches. Read-model
 * tests use it to check a projection's tables and queries in isolation.
 */

export interface Harness {
  readonly driver: SqlDriver;
  /** Applies the events in batches of `batchSize` (default 500), each in one transaction. */
  apply(events: readonly ProjectedEvent[], batchSize?: number): Promise<void>;
  close(): Promise<void>;
}

export const openHarness = async (projections: readonly Projection[]): Promise<Harness> => {
  const database: TestDatabase = await createTestDatabase();
  const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 4 });
  for (const projection of projections) {
    const table = (base: string) => physicalTable(projection, base);
    await driver.transaction(async (query) => {
      await projection.migrate(query, table);
      for (const base of projection.tables) await query(`create or replace view ${base} as select * from ${table(base)}`);
    });
  }
  return {
    driver,
    apply: async (events, batchSize = 500) => {
      for (let i = 0; i < events.length; i += batchSize) {
        const batch = events.slice(i, i + batchSize);
        await driver.transaction(async (query) => {
          for (const projection of projections) await projection.apply(batch, query, (base) => physicalTable(projection, base));
        });
      }
    },
    close: async () => {
      await driver.close();
      await database.drop();
    },
  };
};

/**
 * Turns events as deciders return them into log entries: metadata added, stream positions counted
 * per stream, global positions in order, one second apart from `start`.
 */
export const toLog = (
  entries: readonly { readonly event: WithoutMetadata<AnyEvent>; readonly streamId: string; readonly metadata: Omit<EventMetadata, "occurredAt"> }[],
  start = new Date("2025-03-14T08:00:00.000Z"),
): ProjectedEvent[] => {
  const versions = new Map<string, bigint>();
  return entries.map(({ event, streamId, metadata }, index) => {
    const at = new Date(start.getTime() + index * 1000);
    const streamPosition = (versions.get(streamId) ?? 0n) + 1n;
    versions.set(streamId, streamPosition);
    return {
      event: { ...event, metadata: { ...metadata, occurredAt: at.toISOString() } } as AnyEvent,
      eventId: randomUUID(),
      streamId,
      streamPosition,
      position: { tx: BigInt(1000 + index), seq: BigInt(index + 1) },
      recordedAt: at,
    };
  });
};
