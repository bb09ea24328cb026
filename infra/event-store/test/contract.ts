import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  comparePositions,
  WrongExpectedVersion,
  type EventStore,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
} from "../src/port.ts";

/**
 * The one contract every event store adapter passes (DESIGN §2, CARD-1). Streams get fresh ids
 * per test and subscriptions start at the head, so tests share one store without seeing each
 * other's events.
 */
export interface ContractHarness {
  /** A store on the adapter's database. */
  open(options?: { beforeCommit?: () => Promise<void> }): Promise<EventStore>;
  /** Whether `beforeCommit` can hold an append's transaction open (the SQL adapters). */
  holdsTransactions: boolean;
  /** How many writers the ordering test runs at once (R2 asks for 16). */
  writers: number;
  teardown?(): Promise<void>;
}

const newStream = (category = "order") => `${category}-${randomUUID()}`;

const event = (type: string, data: Record<string, unknown> = {}): NewEvent => ({
  eventId: randomUUID(),
  type,
  schemaVersion: 1,
  data,
  metadata: { actor: { id: "s1", name: "Maria", role: "Team" }, correlationId: randomUUID() },
});

/** Collects what a subscription delivers and lets a test wait for a condition on it. */
const collect = (store: EventStore, after: GlobalPosition, batchSize?: number) => {
  const seen: RecordedEvent[] = [];
  let caughtUp = false;
  const subscription = store.subscribe({
    after,
    ...(batchSize ? { batchSize } : {}),
    handle: async (events) => {
      seen.push(...events);
    },
    onCaughtUp: () => {
      caughtUp = true;
    },
  });
  const until = async (condition: () => boolean, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out; ${seen.length} events seen`);
      await sleep(5);
    }
  };
  return { seen, subscription, until, caughtUp: () => caughtUp };
};

export const eventStoreContract = (name: string, harness: () => ContractHarness) => {
  describe(`event store contract: ${name}`, () => {
    let h: ContractHarness;
    let store: EventStore;

    beforeAll(async () => {
      h = harness();
      store = await h.open();
    }, 60_000);

    afterAll(async () => {
      await store?.close();
      await h?.teardown?.();
    }, 60_000);

    it("appends to a new stream and reads it back in order", async () => {
      const stream = newStream();
      const placed = event("OrderPlaced", { orderId: "100234" });
      const assigned = event("OrderAssigned", { by: "Maria" });
      const result = await store.append(stream, [placed, assigned], { expectedVersion: "no_stream" });
      expect(result).toMatchObject({ nextVersion: 2n, duplicate: false });

      const read = await store.readStream(stream);
      expect(read.map((e) => [e.type, e.streamPosition, e.eventId])).toEqual([
        ["OrderPlaced", 1n, placed.eventId],
        ["OrderAssigned", 2n, assigned.eventId],
      ]);
      expect(read[0]!.data).toEqual({ orderId: "100234" });
      expect(read[1]!.metadata).toEqual(assigned.metadata);
      expect(read[0]!.schemaVersion).toBe(1);
      expect(read[0]!.recordedAt).toBeInstanceOf(Date);
      expect(comparePositions(read[0]!.position, read[1]!.position)).toBe(-1);
      expect(read[1]!.position).toEqual(result.position);
    });

    it("reads a long stream in numeric order (10 before 9 would be text order)", async () => {
      const stream = newStream();
      for (let n = 1; n <= 25; n++) await store.append(stream, [event("E", { n })], { expectedVersion: BigInt(n - 1) || "no_stream" });
      const read = await store.readStream(stream);
      expect(read.map((e) => e.streamPosition)).toEqual(Array.from({ length: 25 }, (_, i) => BigInt(i + 1)));
      expect(read.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    });

    it("reads a range of a stream, and nothing from a stream that does not exist", async () => {
      const stream = newStream();
      await store.append(stream, [1, 2, 3, 4].map((n) => event("E", { n })), { expectedVersion: "no_stream" });
      const middle = await store.readStream(stream, { from: 2n, to: 3n });
      expect(middle.map((e) => e.data.n)).toEqual([2, 3]);
      expect(await store.readStream(newStream())).toEqual([]);
    });

    it("appends at the exact expected version and refuses a stale one with the stream's version", async () => {
      const stream = newStream();
      await store.append(stream, [event("A")], { expectedVersion: "no_stream" });
      await store.append(stream, [event("B")], { expectedVersion: 1n });

      const stale = store.append(stream, [event("C")], { expectedVersion: 1n });
      await expect(stale).rejects.toBeInstanceOf(WrongExpectedVersion);
      await expect(stale).rejects.toMatchObject({ streamId: stream, expected: 1n, actual: 2n });
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(["A", "B"]);
    });

    it("honours no_stream, stream_exists and any", async () => {
      const stream = newStream();
      await expect(store.append(stream, [event("A")], { expectedVersion: "stream_exists" })).rejects.toMatchObject({
        actual: 0n,
      });
      await store.append(stream, [event("A")], { expectedVersion: "no_stream" });
      await expect(store.append(stream, [event("B")], { expectedVersion: "no_stream" })).rejects.toMatchObject({
        actual: 1n,
      });
      await store.append(stream, [event("B")], { expectedVersion: "stream_exists" });
      await store.append(stream, [event("C")], { expectedVersion: "any" });
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(["A", "B", "C"]);
    });

    it("treats a retried append (same event ids) as a no-op that answers the original positions", async () => {
      const stream = newStream();
      const batch = [event("A"), event("B")];
      const first = await store.append(stream, batch, { expectedVersion: "no_stream" });
      // The retry still carries the expected version of the first attempt.
      const retry = await store.append(stream, batch, { expectedVersion: "no_stream" });
      expect(retry).toEqual({ ...first, duplicate: true });
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it("treats a retried one-event append as a no-op, at the version it named or at any", async () => {
      const stream = newStream();
      await store.append(stream, [event("OrderPlaced")], { expectedVersion: "no_stream" });
      const assign = event("OrderAssigned");
      const first = await store.append(stream, [assign], { expectedVersion: 1n });
      expect(await store.append(stream, [assign], { expectedVersion: 1n })).toEqual({ ...first, duplicate: true });
      expect(await store.append(stream, [assign], { expectedVersion: "any" })).toEqual({ ...first, duplicate: true });
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(["OrderPlaced", "OrderAssigned"]);
    });

    it("lets exactly one of many racing writers at the same version win", async () => {
      const stream = newStream();
      await store.append(stream, [event("OrderPlaced")], { expectedVersion: "no_stream" });
      const attempts = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => store.append(stream, [event("OrderAssigned", { i })], { expectedVersion: 1n })),
      );
      const won = attempts.filter((a) => a.status === "fulfilled");
      const lost = attempts.filter((a) => a.status === "rejected");
      expect(won).toHaveLength(1);
      for (const loss of lost) expect(loss.reason).toMatchObject({ _tag: "WrongExpectedVersion", actual: 2n });
      expect(await store.readStream(stream)).toHaveLength(2);
    });

    it("reads the global log in pages after a position", async () => {
      const head = await store.headPosition();
      const stream = newStream();
      await store.append(stream, [1, 2, 3, 4, 5].map((n) => event("E", { n })), { expectedVersion: "no_stream" });
      const first = await store.readAll({ after: head, limit: 2 });
      const rest = await store.readAll({ after: first[1]!.position, limit: 10 });
      expect([...first, ...rest].filter((e) => e.streamId === stream).map((e) => e.data.n)).toEqual([1, 2, 3, 4, 5]);
      expect(comparePositions(await store.headPosition(), rest[rest.length - 1]!.position)).toBe(0);
    });

    it("subscribes from a checkpoint: catches up on what follows it, then delivers live appends", async () => {
      const stream = newStream();
      await store.append(stream, [event("Before")], { expectedVersion: "no_stream" });
      const checkpoint = await store.headPosition();
      await store.append(stream, [event("Missed1"), event("Missed2")], { expectedVersion: 1n });

      const follower = collect(store, checkpoint);
      await follower.until(() => follower.caughtUp() && follower.seen.length >= 2);
      expect(follower.seen.map((e) => e.type)).toEqual(["Missed1", "Missed2"]);

      await store.append(stream, [event("Live")], { expectedVersion: 3n });
      await follower.until(() => follower.seen.length >= 3);
      expect(follower.seen.map((e) => e.type)).toEqual(["Missed1", "Missed2", "Live"]);
      await follower.subscription.stop();
    });

    it("wakes a subscriber on another connection when events are appended", async () => {
      const reader = await h.open();
      try {
        const follower = collect(reader, await store.headPosition());
        await follower.until(follower.caughtUp);
        const stream = newStream();
        await store.append(stream, [event("Live")], { expectedVersion: "no_stream" });
        await follower.until(() => follower.seen.some((e) => e.streamId === stream));
        await follower.subscription.stop();
      } finally {
        await reader.close();
      }
    });

    it("stops a subscription whose handler fails, without moving past the failed batch", async () => {
      const stream = newStream();
      const head = await store.headPosition();
      await store.append(stream, [event("Poison")], { expectedVersion: "no_stream" });
      const errors: unknown[] = [];
      let calls = 0;
      const subscription = store.subscribe({
        after: head,
        handle: async () => {
          calls += 1;
          throw new Error("handler broke");
        },
        onError: (error) => errors.push(error),
      });
      await subscription.done;
      expect(calls).toBe(1);
      expect(String(errors[0])).toContain("handler broke");
    });

    it(
      "R2: every committed event reaches a live reader exactly once, each stream in order, under concurrent writers",
      async () => {
        // Writers hold their transactions open for random times, so transactions commit out of
        // the order their events were numbered in: the case a plain `position > n` reader loses.
        const writerStore = await h.open({
          beforeCommit: h.holdsTransactions ? () => sleep(Math.random() * 12) : undefined,
        });
        const streams = Array.from({ length: 8 }, () => newStream("r2"));
        const follower = collect(store, await store.headPosition(), 7);
        const appendsPerWriter = 25;
        const committed: string[] = [];
        try {
          await Promise.all(
            Array.from({ length: h.writers }, async (_, writer) => {
              for (let i = 0; i < appendsPerWriter; i += 1) {
                const stream = streams[Math.floor(Math.random() * streams.length)]!;
                const e = event("Written", { writer, i });
                await writerStore.append(stream, [e], { expectedVersion: "any" });
                committed.push(e.eventId);
              }
            }),
          );
          const mine = () => follower.seen.filter((e) => e.streamId.startsWith("r2-") && streams.includes(e.streamId));
          await follower.until(() => mine().length >= committed.length, 60_000);
          await sleep(200); // anything extra (a duplicate) would arrive now
          const seen = mine();

          expect(seen).toHaveLength(h.writers * appendsPerWriter);
          expect(new Set(seen.map((e) => e.eventId))).toEqual(new Set(committed));
          for (let i = 1; i < follower.seen.length; i += 1) {
            expect(comparePositions(follower.seen[i - 1]!.position, follower.seen[i]!.position)).toBe(-1);
          }
          for (const stream of streams) {
            const positions = seen.filter((e) => e.streamId === stream).map((e) => e.streamPosition);
            expect(positions).toEqual(positions.map((_, i) => BigInt(i + 1)));
          }
        } finally {
          await follower.subscription.stop();
          await writerStore.close();
        }
      },
      120_000,
    );
  });
};
