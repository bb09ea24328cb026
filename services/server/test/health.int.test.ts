import type { AddressInfo } from "node:net";
import { postgresAvailable } from "@etd/infra/test-database";
import { createPostgresEventStore, encryptingEventStore } from "@etd/event-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@etd/api/internal/app.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

describe.skipIf(!available)("GET /api/health on PostgreSQL", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it("answers the envelope with the event store's head position", async () => {
    const appended = await api.runtime.deps.store.append(
      "order-100234",
      [{ eventId: crypto.randomUUID(), type: "OrderPlaced", schemaVersion: 1, data: {}, metadata: {} }],
      { expectedVersion: "no_stream" },
    );
    // The head is what readers can see: a write in flight elsewhere on the server (a lease
    // renewal, a seal) holds it back for the moment it takes to commit, so ask until it shows.
    const head = `${appended.position.tx}.${appended.position.seq}`;
    let answer = await api.call("GET", "/health");
    for (const deadline = Date.now() + 30_000; answer.body.data?.head !== head && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await api.call("GET", "/health");
    }
    expect(answer.body).toEqual({
      status: 1,
      message: "OK",
      data: { eventStore: "postgres", head, horizonAgeSeconds: expect.any(Number) },
    });
    // The horizon spans the server: another database's open transaction would show here.
    expect(answer.body.data.horizonAgeSeconds).toBeLessThan(5);
  });

  it("answers 503 with a clear message when the event store is gone", async () => {
    const broken = await createPostgresEventStore({ connectionString: api.database.url });
    await broken.close();
    const sealed = encryptingEventStore(broken, { keyFor: async () => Buffer.alloc(32), existingKey: async () => undefined, destroy: async () => {} });
    const deps = { ...api.runtime.deps, store: { ...sealed, transaction: () => Promise.reject(new Error("the event store is gone")) } };
    const server = createApp(deps).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/health`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 0, message: "The event store is not reachable.", data: null });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
