import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresEventStore, type EventStore, type NewEvent } from "../src/index.ts";

const available = await postgresAvailable();

const event = (): NewEvent => ({ eventId: randomUUID(), type: "E", schemaVersion: 1, data: {}, metadata: {} });

describe.skipIf(!available)("PostgreSQL read horizon", () => {
  let database: TestDatabase;
  let store: EventStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    store = await createPostgresEventStore({ connectionString: database.url });
  });

  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it("holds back events committed after an open transaction began, and reports the horizon's age", async () => {
    const head = await store.headPosition();
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      await blocker.query("begin");
      await blocker.query("select pg_current_xact_id()"); // now it holds the horizon
      await sleep(300);
      await store.append(`order-${randomUUID()}`, [event()], { expectedVersion: "no_stream" });

      expect(await store.readAll({ after: head, limit: 10 })).toEqual([]);
      expect(await store.horizonAgeSeconds()).toBeGreaterThanOrEqual(0.3);

      await blocker.query("commit");
      expect(await store.readAll({ after: head, limit: 10 })).toHaveLength(1);
      expect(await store.horizonAgeSeconds()).toBe(0);
    } finally {
      await blocker.end();
    }
  });

  it("ends a transaction left idle past the timeout, so it cannot hold the horizon, and writes nothing", async () => {
    const stalled = await createPostgresEventStore({
      connectionString: database.url,
      idleInTransactionTimeoutMs: 200,
      beforeCommit: () => sleep(600),
    });
    const stream = `order-${randomUUID()}`;
    try {
      await expect(stalled.append(stream, [event()], { expectedVersion: "no_stream" })).rejects.toThrow();
      expect(await store.readStream(stream)).toEqual([]);
    } finally {
      await stalled.close();
    }
  });
});
