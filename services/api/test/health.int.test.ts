import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { createPostgresEventStore, type EventStore } from "@etd/event-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.ts";

const available = await postgresAvailable();

describe.skipIf(!available)("GET /api/health on PostgreSQL", () => {
  let database: TestDatabase;
  let store: EventStore;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    store = await createPostgresEventStore({ connectionString: database.url });
    server = createApp({ eventStore: store, eventStoreKind: "postgres" }).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await store?.close();
    await database?.drop();
  });

  it("answers the envelope with the event store's head position", async () => {
    const before = await (await fetch(`${base}/api/health`)).json();
    expect(before).toEqual({ status: 1, message: "OK", data: { eventStore: "postgres", head: "0.0", horizonAgeSeconds: 0 } });

    const appended = await store.append(
      "order-100234",
      [{ eventId: crypto.randomUUID(), type: "OrderPlaced", schemaVersion: 1, data: {}, metadata: {} }],
      { expectedVersion: "no_stream" },
    );
    const after = (await (await fetch(`${base}/api/health`)).json()) as { data: { head: string } };
    expect(after.data.head).toBe(`${appended.position.tx}.${appended.position.seq}`);
  });

  it("answers 503 with a clear message when the event store is gone", async () => {
    const broken = await createPostgresEventStore({ connectionString: database.url });
    await broken.close();
    const app = createApp({ eventStore: broken, eventStoreKind: "postgres" }).listen(0, "127.0.0.1");
    await new Promise((resolve) => app.once("listening", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(app.address() as AddressInfo).port}/api/health`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 0, message: "The event store is not reachable.", data: null });
    } finally {
      await new Promise((resolve) => app.close(resolve));
    }
  });
});
