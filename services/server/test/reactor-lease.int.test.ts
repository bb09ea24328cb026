import type { RecordedEvent } from "@etd/event-store";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReactor, type RunningReactor } from "@etd/event-store";
import { reactorLag } from "@etd/event-store";
import { openRuntime, type Runtime } from "../src/runtime.ts";
import { fillOrders } from "./support/fill-orders.ts";

/*
 * Issue 15, ADR 0023: a reactor run by several processes. One at a time follows the log (the
 * lease holder); a stop hands over at once, a crash once the lease runs out; a holder that lost
 * its lease unnoticed cannot move the checkpoint under its successor.
 */

const available = await postgresAvailable();
/** Waits for the condition; the guard only bounds a hang (a busy machine takes longer). */
const waitFor = async (check: () => boolean | Promise<boolean>, ms = 30_000) => {
  for (const started = Date.now(); !(await check()); ) {
    if (Date.now() - started > ms) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe.skipIf(!available)("reactor leases (issue 15: each reactor safe to run twice)", () => {
  let database: TestDatabase;
  let runtime: Runtime;
  beforeAll(async () => {
    database = await createTestDatabase();
    runtime = await openRuntime({ databaseUrl: database.url, dataDir: "/tmp/etd-lease-unused", jwtSecret: "x".repeat(40), sessionTtlSeconds: 3600, intakeToken: undefined, maxUploadBytes: 1 << 20 });
    await fillOrders(runtime.driver, 20, 10);
  });
  afterAll(async () => {
    await runtime?.close();
    await database?.drop();
  });

  const counting = (name: string, seen: string[]) => ({
    name,
    react: async (event: RecordedEvent) => {
      seen.push(event.eventId);
    },
  });

  it("two runs of one reactor: only the holder handles events, each once; on a clean stop the other takes over at once", async () => {
    const first: string[] = [];
    const second: string[] = [];
    const host = { driver: runtime.driver, store: runtime.deps.store, leaseMs: 60_000, log: () => undefined };
    const a: RunningReactor = await startReactor(host, counting("lease-test", first));
    const b: RunningReactor = await startReactor(host, counting("lease-test", second));
    await waitFor(() => first.length === 200);
    expect([a.holdsLease(), b.holdsLease()]).toEqual([true, false]);
    expect(second).toEqual([]);

    await a.stop();
    await fillOrders(runtime.driver, 5, 10, { firstId: 7_100_000 });
    // Well inside the 60 s lease: the stop let it go.
    await waitFor(() => second.length === 50, 30_000);
    expect(b.holdsLease()).toBe(true);
    expect(new Set([...first, ...second]).size).toBe(250);
    // The checkpoint moves after the batch's last event is handled: caught up once it has.
    await waitFor(async () => (await reactorLag(runtime.driver)).find((r) => r.reactor === "lease-test")?.eventsBehind === 0);
    await b.stop();
  });

  it("a crashed holder's lease runs out and the standby resumes from its checkpoint; the old holder can no longer move it", async () => {
    const seen: string[] = [];
    const host = { driver: runtime.driver, store: runtime.deps.store, leaseMs: 1_000, log: () => undefined };
    // A holder that takes the lease and then hangs in its first batch, as a paused process would.
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    const stale = await startReactor(host, { name: "crash-test", react: () => hung });
    await waitFor(() => stale.holdsLease());
    // Its lease is no longer renewed from here on, as if the process had died.
    await runtime.driver.query("update reactor_leases set owner = 'gone', expires_at = now() - interval '1 second' where name = 'crash-test'");
    const standby = await startReactor(host, counting("crash-test", seen));
    await waitFor(() => seen.length === 250);
    expect(standby.holdsLease()).toBe(true);
    // The standby records its checkpoint after its batch is handled: the comparison starts from there.
    await waitFor(async () => (await reactorLag(runtime.driver)).find((r) => r.reactor === "crash-test")?.eventsBehind === 0);
    const [before] = await runtime.driver.query("select position from reactor_checkpoints where name = 'crash-test'");
    expect(before).toBeDefined();
    // The hung holder wakes: its batch is done, but the checkpoint write is refused and it stands by.
    release();
    await waitFor(() => !stale.holdsLease());
    const [after] = await runtime.driver.query("select position from reactor_checkpoints where name = 'crash-test'");
    expect(after).toEqual(before);
    await Promise.all([stale.stop(), standby.stop()]);
  });
});
