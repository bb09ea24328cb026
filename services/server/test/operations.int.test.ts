import type { OperationsStatus, ReactorStatus, ReadModelStatus } from "@etd/contract";
import { formatPosition, START, startReactor, type RecordedEvent, type RunningReactor } from "@etd/event-store";
import { OPERATIONS_STREAM, StaffId } from "@etd/events";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { ALL_PROJECTIONS, operatorRequests, startProjector, type Projector } from "@etd/projections";
import { handleCommand, operationsDecider } from "@etd/write";
import { openRuntime, type Runtime } from "../src/runtime.ts";
import { fillOrders } from "./support/fill-orders.ts";
import { waitForReactor } from "./support/reactors.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 28, the operator's screen (ADR 0039), over HTTP on PostgreSQL: an Admin reads each read
 * model's and reactor's figures, which agree with /metrics; anyone else is refused and changes
 * nothing; Rebuild appends the request (the acting Admin its actor) and the next build of the read
 * model goes live beside the old one, which answers meanwhile; Retry makes a failing reactor try
 * again now instead of at the end of its back-off. Projections have no side effects: a rebuild
 * repeats none (it writes only its own new tables).
 */

const available = await postgresAvailable();

/** Waits for the condition; the guard only bounds a hang. */
const waitFor = async <T>(check: () => Promise<T | undefined | null | false>, ms = 60_000): Promise<T> => {
  for (const started = Date.now(); ; ) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() - started > ms) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.skipIf(!available)("issue 28: the operator's screen (Admin only)", () => {
  let api: TestApi;
  let admin: string;
  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.login("Admin");
    await api.placeOrders(30);
  });
  afterAll(async () => {
    await api?.close();
  });

  const operations = async (token = admin): Promise<OperationsStatus> => {
    const answer = await api.call("GET", "/admin/operations", undefined, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as OperationsStatus;
  };
  const readModel = async (name: string): Promise<ReadModelStatus> => (await operations()).readModels.find((m) => m.name === name)!;
  const reactorNamed = async (name: string): Promise<ReactorStatus | undefined> => (await operations()).reactors.find((r) => r.name === name);
  const operationEvents = async () => api.runtime.deps.store.readStream(OPERATIONS_STREAM);
  const metric = async (name: string, labels: string): Promise<number | undefined> => {
    const text = await (await fetch(`${api.base}/metrics`)).text();
    const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && labels.split(",").every((label) => l.includes(label)));
    return line === undefined ? undefined : Number(line.split(" ").at(-1));
  };

  it("issue 28: an Admin sees each read model's live version and lag, each reactor's checkpoint and lease, the head, the horizon and the chain; the figures are /metrics'", async () => {
    // Quiet first (every read model at the head), so the two reads see the same log.
    const quiet = await waitFor(async () => {
      const status = await operations();
      return status.readModels.every((m) => m.live?.eventsBehind === 0) && status.reactors.some((r) => r.name === "mail" && r.eventsBehind === 0) && status;
    });
    const queue = quiet.readModels.find((m) => m.name === "queue")!;
    expect(queue).toMatchObject({ liveVersion: expect.any(Number), live: { state: "live", eventsBehind: 0, secondsBehind: 0, percent: 100 }, building: null });
    expect(quiet.readModels.map((m) => m.name)).toEqual(expect.arrayContaining(["queue", "order_details", "reports", "staff", "gateways", "dashboard"]));
    const mail = quiet.reactors.find((r) => r.name === "mail")!;
    expect(mail.lease).toMatchObject({ owner: expect.stringContaining(`:${process.pid}:`), since: expect.any(String) });
    expect(Date.parse(mail.lease!.since!)).toBeLessThanOrEqual(Date.now());
    expect(quiet.reactors.map((r) => r.name)).toEqual(expect.arrayContaining(["erasure", "mail", "operator-requests"]));
    expect(quiet.head).toMatch(/^\d+\.\d+$/);
    expect(quiet.horizonAgeSeconds).toBeGreaterThanOrEqual(0);
    expect(quiet.chain.sealed + quiet.chain.unsealed).toBeGreaterThan(0);

    const applied = await metric("projection_events_applied_total", `projection="queue",build="${queue.live!.build}",status="live"`);
    expect(applied).toBe(queue.live!.eventsApplied);
    expect(await metric("projection_lag_events", `projection="queue",build="${queue.live!.build}"`)).toBe(0);
    expect(await metric("reactor_lease_held", 'reactor="mail"')).toBe(1);
  });

  it("issue 28: a Manager or a Team member is refused (403) for the screen and every action, and nothing is appended; an unknown name is refused (404) and appends nothing", async () => {
    const before = (await operationEvents()).length;
    for (const role of ["Manager", "Team", "Telecaller", "Night Staff"] as const) {
      const token = await api.login(role);
      expect((await api.call("GET", "/admin/operations", undefined, token)).status).toBe(403);
      expect((await api.call("POST", "/admin/operations/read-models/queue/rebuild", undefined, token)).status).toBe(403);
      expect((await api.call("POST", "/admin/operations/reactors/mail/retry", undefined, token)).status).toBe(403);
    }
    const unknown = await api.call("POST", "/admin/operations/read-models/nothing/rebuild", undefined, admin);
    expect(unknown).toMatchObject({ status: 404, body: { status: 0, message: 'No read model is called "nothing".' } });
    expect((await api.call("POST", "/admin/operations/reactors/nothing/retry", undefined, admin)).status).toBe(404);
    expect((await operationEvents()).length).toBe(before);
  });

  it("issue 28: Rebuild appends the request with the Admin as its actor; the next build catches up beside the live one, which keeps answering, and goes live", async () => {
    // The live build has applied every order placed so far: the counts to compare the new build's with.
    await waitFor(async () => (await readModel("queue")).live?.eventsBehind === 0);
    const before = await readModel("queue");
    const rebuilt = await api.call("POST", "/admin/operations/read-models/queue/rebuild", undefined, admin);
    expect(rebuilt.status, JSON.stringify(rebuilt.body)).toBe(200);
    expect(rebuilt.body).toMatchObject({ status: 1, message: "The queue read model is being rebuilt beside the live one." });
    const [request] = (await operationEvents()).slice(-1);
    expect(request).toMatchObject({ type: "ProjectionRebuildRequested", data: { projection: "queue", version: before.liveVersion } });
    expect(request!.metadata).toMatchObject({ actor: { kind: "staff", id: api.staff.Admin.id, role: "Admin" } });
    // The queue answers while the new build catches up.
    const list = await api.call("GET", "/admin/get-orders-list/allOrder", undefined, admin);
    const counts = await api.call("GET", "/admin/get-all-folder-count", undefined, admin);
    expect([list.status, counts.status]).toEqual([200, 200]);
    const after = await waitFor(async () => {
      const queue = await readModel("queue");
      return queue.live!.build > before.live!.build && queue;
    });
    expect(after).toMatchObject({ liveVersion: before.liveVersion, building: null, live: { state: "live", version: before.liveVersion } });
    // The new build counts what the old one did.
    await waitFor(async () => (await readModel("queue")).live?.eventsBehind === 0);
    expect((await api.call("GET", "/admin/get-all-folder-count", undefined, admin)).body.data).toEqual(counts.body.data);
  });

  it("issue 28: Retry makes a failing reactor try again now, not at the end of its back-off; the screen shows its last error and when it would have retried", async () => {
    let failing = true;
    const handled: string[] = [];
    const reactor: RunningReactor = await startReactor(
      { driver: api.runtime.driver, store: api.runtime.deps.store, leaseMs: 60_000, log: () => undefined },
      {
        name: "retry-test",
        react: async (event: RecordedEvent) => {
          if (failing) throw new Error("the provider is down");
          handled.push(event.eventId);
        },
      },
    );
    try {
      // Its back-off doubles from half a second: wait until the next try is far enough off to tell a Retry from it.
      const waiting = await waitFor(async () => {
        const r = await reactorNamed("retry-test");
        return r?.retryAt != null && Date.parse(r.retryAt) - Date.now() > 6_000 && r;
      });
      expect(waiting.lastError).toMatchObject({ message: "the provider is down", at: expect.any(String) });
      failing = false;
      const asked = Date.now();
      const retried = await api.call("POST", "/admin/operations/reactors/retry-test/retry", undefined, admin);
      expect(retried.body).toMatchObject({ status: 1, message: "The retry-test reactor will try again now." });
      expect((await operationEvents()).at(-1)).toMatchObject({ type: "ReactorRetryRequested", data: { reactor: "retry-test" } });
      const done = await waitFor(async () => {
        const r = await reactorNamed("retry-test");
        return r?.eventsBehind === 0 && r.retryAt === null && r;
      });
      expect(Date.now()).toBeLessThan(Date.parse(waiting.retryAt!));
      expect(Date.now() - asked).toBeLessThan(6_000);
      expect(handled.length).toBeGreaterThan(0);
      // Caught up and not failing: a Retry now would change nothing, so it is refused and appends nothing.
      const events = (await operationEvents()).length;
      const idle = await api.call("POST", "/admin/operations/reactors/retry-test/retry", undefined, admin);
      expect(idle).toMatchObject({ status: 409, body: { status: 0, message: "The retry-test reactor is not waiting to retry." } });
      expect((await operationEvents()).length).toBe(events);
      // The last error stays on the screen, with its time; nothing is pending.
      expect(done.lastError?.message).toBe("the provider is down");
    } finally {
      await reactor.stop();
    }
  });
});

describe.skipIf(!available)("issue 28: an operator's request survives a crash (ADR 0039)", () => {
  let database: TestDatabase;
  let runtime: Runtime;
  let projector: Projector;
  beforeAll(async () => {
    database = await createTestDatabase();
    // The projector and the operator's reactor are started by hand below, to stop them where a crash would.
    runtime = await openRuntime({ databaseUrl: database.url, dataDir: "/tmp/etd-operations-unused", jwtSecret: "x".repeat(40), sessionTtlSeconds: 3600, intakeToken: undefined, maxUploadBytes: 1 << 20 });
    await fillOrders(runtime.driver, 20, 5);
    projector = await startProjector({ driver: runtime.driver, store: runtime.deps.store, projections: ALL_PROJECTIONS, scanIntervalMs: 200 });
    await projector.ready;
  });
  afterAll(async () => {
    await projector?.stop();
    await runtime?.close();
    await database?.drop();
  });

  const host = () => ({ driver: runtime.driver, store: runtime.deps.store, leaseMs: 5_000, log: () => undefined });
  const queueBuilds = async () => (await runtime.driver.query("select build, status from projection_builds where name = 'queue' order by build")).map((row) => `${String(row.build)}:${String(row.status)}`);

  it("issue 28: a Rebuild appended while nothing carried it out is carried out when the operator's reactor starts; carried out again from an older checkpoint, it starts no second build", async () => {
    const before = await queueBuilds();
    // The request is in the log; the process that would carry it out is down (it crashed after the append).
    const appended = await handleCommand(
      operationsDecider,
      { type: "RequestRebuild", projection: "queue", version: ALL_PROJECTIONS.find((p) => p.name === "queue")!.version, building: false, actor: { id: StaffId.make("1"), name: "Grace Lim", role: "Admin" } },
      { store: runtime.deps.store, streamId: OPERATIONS_STREAM, metadata: { actor: { kind: "staff", id: StaffId.make("1"), name: "Grace Lim", role: "Admin" }, correlationId: "crash-test" }, now: () => new Date() },
    );
    expect(appended.ok).toBe(true);
    expect(await queueBuilds()).toEqual(before);

    // Restart: the request is carried out, and the next build goes live.
    let operator: RunningReactor = await startReactor(host(), operatorRequests(runtime.driver, ALL_PROJECTIONS));
    const head = await runtime.deps.store.headPosition();
    await waitForReactor(runtime.driver, "operator-requests", head);
    for (const started = Date.now(); !(await queueBuilds()).some((b) => b.endsWith(":live") && !before.includes(b)); ) {
      if (Date.now() - started > 60_000) throw new Error(`no new live build: ${(await queueBuilds()).join()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const after = await queueBuilds();
    expect(after.filter((b) => b.endsWith(":live"))).toHaveLength(1);

    // A crash after the effect and before the checkpoint: the request is read again, and nothing more is built.
    await operator.stop();
    await runtime.driver.query("update reactor_checkpoints set position = $1 where name = 'operator-requests'", [formatPosition(START)]);
    operator = await startReactor(host(), operatorRequests(runtime.driver, ALL_PROJECTIONS));
    await waitForReactor(runtime.driver, "operator-requests", head);
    expect(await queueBuilds()).toEqual(after);
    await operator.stop();
  });
});
