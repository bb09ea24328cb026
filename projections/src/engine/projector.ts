import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { comparePositions, type EventStore, type SqlDriver } from "@etd/event-store";
import { BuildWorker, type WorkerHost } from "./build-worker.ts";
import type { Projection } from "./projection.ts";
import { acquireLease, listBuilds, migrateRegistry, readBuild, releaseLease, startBuild, tableOf, type Build } from "./registry.ts";
import { LeaseLost, retryPause } from "./retry-policy.ts";
import { startSharedReader, type ReaderHost, type SharedReader } from "./shared-reader.ts";
import { startSoloReader, type SoloHost } from "./solo-reader.ts";

/*
 * Runs projections (DESIGN §5). For each projection it keeps every build that is not retired
 * moving: the live one follows the log, a newer one (a new version, or a rebuild) catches up
 * beside it and is promoted when it reaches the head. Each batch's read-model changes, its
 * checkpoint and a NOTIFY `{projection, position}` commit in one transaction; the transaction
 * first checks that this process still holds the build's lease and that the checkpoint is the one
 * it read from, so two projector processes never apply an event twice.
 *
 * This module composes the parts: it finds builds to work on and leases them (scan), gives each a
 * BuildWorker (build-worker.ts), feeds them from one shared reader per process (shared-reader.ts),
 * or, for a build that starts behind it, a subscription of its own until it has caught up
 * (solo-reader.ts); retry-policy.ts says which failures are tried again.
 */

export { PROJECTION_CHANNEL, parseApplyTrace } from "./build-worker.ts";

export interface ProjectorOptions {
  readonly driver: SqlDriver;
  readonly store: EventStore;
  readonly projections: readonly Projection[];
  /** Names this process in leases; unique per process. */
  readonly owner?: string;
  readonly batchSize?: number;
  /** How long a lease lasts without renewal (default 15 s). */
  readonly leaseMs?: number;
  /** How often to look for new builds and standby leases (default 2 s). */
  readonly scanIntervalMs?: number;
  /** Called when a build is promoted or fails; for logs. */
  readonly onEvent?: (message: string) => void;
}

export interface Projector {
  /** Resolves when every projection has a live build that has caught up with the log as it was. */
  readonly ready: Promise<void>;
  /** Rejects with the first error that stops a projection (it is not retried). */
  readonly failure: Promise<never>;
  stop(): Promise<void>;
}

const createTables = (projection: Projection) => async (query: Parameters<Projection["migrate"]>[0], build: Pick<Build, "version" | "build">) =>
  projection.migrate(query, (base) => tableOf(build, base));

/**
 * PROJECTION_LEASE_SECONDS, read by the API and the projections CLI alike: how long a build stays
 * with a process that stopped renewing it, so how soon another takes over after a crash. A whole
 * number of seconds from 1 to 600 (default 15); the lease in milliseconds, or the problem.
 */
export const readProjectionLease = (text: string | undefined): { readonly ms: number } | { readonly problem: string } => {
  const value = text ?? "15";
  const seconds = Number(value);
  return /^\d+$/.test(value) && seconds >= 1 && seconds <= 600
    ? { ms: seconds * 1000 }
    : { problem: `PROJECTION_LEASE_SECONDS must be a whole number from 1 to 600 (got "${value}")` };
};

export const startProjector = async (options: ProjectorOptions): Promise<Projector> => {
  const { driver, store, projections } = options;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const batchSize = options.batchSize ?? 1000;
  const leaseMs = options.leaseMs ?? 15_000;
  const scanIntervalMs = options.scanIntervalMs ?? 2000;
  const log = options.onEvent ?? (() => {});
  const workers = new Map<string, BuildWorker>();
  const failed = new Map<string, unknown>();
  let reader: SharedReader | undefined;
  let stopped = false;
  let reportFailure: (error: Error) => void = () => {};
  const failure = new Promise<never>((_resolve, reject) => (reportFailure = reject));
  failure.catch(() => undefined);

  await migrateRegistry(driver);

  const key = (name: string, build: number) => `${name}#${build}`;

  /** Work started outside any caller (timers, error handlers) that stop() must wait for. */
  const background = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    background.add(work);
    const done = () => void background.delete(work);
    work.then(done, done);
  };
  const later = (work: () => Promise<void> | void) => {
    track(
      retryPause().then(async () => {
        if (!stopped) await work();
      }),
    );
  };

  /** Takes the worker out of service: nothing feeds it and its lease is no longer renewed. */
  const detach = (worker: BuildWorker) => {
    worker.end();
    const id = key(worker.projection.name, worker.build);
    if (workers.get(id) === worker) workers.delete(id);
    reader?.members.delete(worker);
  };

  /** A batch failed: another process took the build over, or the projection broke (not retried). */
  const fail = (worker: BuildWorker, error: unknown) => {
    detach(worker);
    if (error instanceof LeaseLost) {
      log(error.message);
      return;
    }
    failed.set(worker.projection.name, error);
    // Not retried here; another process (perhaps running a fixed version) may try it.
    track(releaseLease(driver.query, worker.projection.name, worker.build, owner).catch(() => undefined));
    const message = `${worker.projection.name}: build ${worker.build} stopped: ${error instanceof Error ? error.message : String(error)}`;
    log(message);
    reportFailure(error instanceof Error ? error : new Error(message));
  };

  /** Stops the worker once any batch it is applying has committed, then lets its lease go. */
  const stopWorker = async (worker: BuildWorker, release: boolean) => {
    detach(worker);
    await worker.solo?.stop();
    await worker.drained;
    if (release) await releaseLease(driver.query, worker.projection.name, worker.build, owner).catch(() => undefined);
  };

  /** Newly leased builds form the shared reader if there is none yet; otherwise they catch up alone. */
  const putToWork = async (builds: readonly BuildWorker[]) => {
    const started = builds.filter((worker) => !worker.ended);
    if (started.length === 0 || stopped) return;
    if (reader && reader.members.size === 0 && ![...workers.values()].some((w) => w.solo)) {
      // It feeds nobody: start it again from where the new builds are.
      const idle = reader;
      reader = undefined;
      await idle.subscription.stop();
    }
    // Stopped, or some of them stopped, while the idle reader was stopping.
    const going = started.filter((worker) => !worker.ended);
    if (stopped || going.length === 0) return;
    if (!reader) reader = startSharedReader(host, going);
    else for (const worker of going) startSoloReader(host, worker);
  };

  /** What the workers and readers ask of this process. */
  const host: WorkerHost & SoloHost & ReaderHost = {
    driver,
    store,
    owner,
    leaseMs,
    batchSize,
    log,
    fail,
    later,
    leaseGone: (worker) => track(stopWorker(worker, false)),
    isShared: (worker) => reader?.members.has(worker) === true,
    workers: () => [...workers.values()],
    isCurrent: (shared) => reader === shared,
    dropReader: (shared) => {
      if (reader === shared) reader = undefined;
    },
    startSolo: (worker) => startSoloReader(host, worker),
    putToWork,
  };

  /**
   * Starts what should run and is not running: a build per projection version, a worker per build
   * whose lease is free. One scan at a time: the start-up loop and the timer both scan, and two
   * overlapping scans would each see no worker, both take the (same owner's) lease and start two
   * workers on one build, which then fail each other's batches forever.
   */
  let scanning: Promise<void> | undefined;
  const scan = (): Promise<void> => (scanning ??= scanOnce().finally(() => (scanning = undefined)));
  const scanOnce = async () => {
    const started: BuildWorker[] = [];
    for (const projection of projections) {
      if (failed.has(projection.name) || stopped) continue;
      let builds = await listBuilds(driver.query, projection.name);
      const live = builds.find((b) => b.status === "live");
      if (live && live.version > projection.version) continue; // newer code runs elsewhere
      if (!builds.some((b) => b.version === projection.version)) {
        await startBuild(driver, projection.name, projection.version, createTables(projection));
        builds = await listBuilds(driver.query, projection.name);
      }
      for (const build of builds) {
        if (build.version !== projection.version || stopped) continue;
        if (workers.has(key(projection.name, build.build))) continue;
        if (await acquireLease(driver.query, projection.name, build.build, owner, leaseMs)) {
          const fresh = await readBuild(driver.query, projection.name, build.build);
          if (fresh && fresh.status !== "retired") {
            const worker = new BuildWorker(host, projection, fresh);
            workers.set(key(projection.name, fresh.build), worker);
            started.push(worker);
          } else await releaseLease(driver.query, projection.name, build.build, owner);
        }
      }
    }
    // Once stopped, stop() lets go of what was leased here.
    if (!stopped) await putToWork(started);
  };

  const ready = (async () => {
    for (;;) {
      if (stopped) return;
      await scan();
      const builds = await listBuilds(driver.query);
      const head = await store.headPosition();
      const allLive = projections.every((p) => {
        const live = builds.find((b) => b.name === p.name && b.status === "live");
        return live !== undefined && comparePositions(live.checkpoint, head) >= 0;
      });
      if (allLive) return;
      const first = [...failed.values()][0];
      if (first) throw first instanceof Error ? first : new Error(`projection failed: ${JSON.stringify(first)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  ready.catch(() => undefined);

  const scanner = setInterval(() => {
    if (!stopped) scan().catch((error: unknown) => log(`projector scan failed: ${String(error)}`));
  }, scanIntervalMs);

  return {
    ready,
    failure,
    stop: async () => {
      stopped = true;
      clearInterval(scanner);
      // A scan still running could start a worker after the ones below are stopped.
      await scanning?.catch(() => undefined);
      await reader?.subscription.stop();
      for (const worker of [...workers.values()]) await stopWorker(worker, true);
      await Promise.allSettled([...background]);
      // A retry that was under way may have started a reader after the one above stopped.
      await reader?.subscription.stop();
    },
  };
};
