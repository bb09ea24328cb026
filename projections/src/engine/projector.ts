import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { Result } from "effect";
import { comparePositions, formatPosition, type EventStore, type RecordedEvent, type SqlDriver, type Subscription } from "@etd/event-store";
import { decodeEvent } from "@etd/events";
import type { ProjectedEvent, Projection } from "./projection.ts";
import { acquireLease, listBuilds, migrateRegistry, promote, readBuild, releaseLease, startBuild, tableOf, type Build } from "./registry.ts";

/*
 * Runs projections (DESIGN §5). For each projection it keeps every build that is not retired
 * moving: the live one follows the log, a newer one (a new version, or a rebuild) catches up
 * beside it and is promoted when it reaches the head. Each batch's read-model changes, its
 * checkpoint and a NOTIFY `{projection, position}` commit in one transaction; the transaction
 * first checks that this process still holds the build's lease and that the checkpoint is the one
 * it read from, so two projector processes never apply an event twice.
 */

export const PROJECTION_CHANNEL = "projection_changed";

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
  stop(): Promise<void>;
}

/** The batch could not commit because another process took over the build (or retired it). */
class LeaseLost extends Error {}

const toProjected = (raw: RecordedEvent): ProjectedEvent => {
  const decoded = decodeEvent(raw);
  // Never skip: a projection that silently missed an event would be wrong forever.
  if (Result.isFailure(decoded)) throw new Error(`Cannot project event ${raw.eventId} of ${raw.streamId}: ${decoded.failure.message}`);
  return {
    event: decoded.success,
    eventId: raw.eventId,
    streamId: raw.streamId,
    streamPosition: raw.streamPosition,
    position: raw.position,
    recordedAt: raw.recordedAt,
  };
};

const createTables = (projection: Projection) => async (query: Parameters<Projection["migrate"]>[0], build: Pick<Build, "version" | "build">) =>
  projection.migrate(query, (base) => tableOf(build, base));

interface Worker {
  readonly build: number;
  readonly subscription: Subscription;
  readonly renew: ReturnType<typeof setInterval>;
}

export const startProjector = async (options: ProjectorOptions): Promise<Projector> => {
  const { driver, store, projections } = options;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const batchSize = options.batchSize ?? 1000;
  const leaseMs = options.leaseMs ?? 15_000;
  const scanIntervalMs = options.scanIntervalMs ?? 2000;
  const log = options.onEvent ?? (() => {});
  const workers = new Map<string, Worker>();
  const failed = new Map<string, unknown>();
  let stopped = false;

  await migrateRegistry(driver);

  const key = (name: string, build: number) => `${name}#${build}`;

  /** Stops the build's worker; with `only`, just that one (a stale caller must not stop its successor). */
  const stopWorker = async (name: string, build: number, release: boolean, only?: Worker) => {
    const worker = workers.get(key(name, build));
    if (!worker || (only !== undefined && worker !== only)) return;
    workers.delete(key(name, build));
    clearInterval(worker.renew);
    await worker.subscription.stop();
    if (release) await releaseLease(driver.query, name, build, owner).catch(() => undefined);
  };

  const runWorker = (projection: Projection, build: Build) => {
    const table = (base: string) => tableOf(build, base);
    let checkpoint = build.checkpoint;
    let status = build.status;

    const applyBatch = async (batch: readonly RecordedEvent[]) => {
      const events = batch.map(toProjected);
      const last = batch[batch.length - 1]!;
      await driver.transaction(async (query) => {
        const current = await readBuild(query, projection.name, build.build, true);
        const held = (await query("select lease_owner = $3 and lease_until > now() as held from projection_builds where name = $1 and build = $2", [projection.name, build.build, owner]))[0]?.held === true;
        if (!current || current.status === "retired" || !held || comparePositions(current.checkpoint, checkpoint) !== 0) {
          throw new LeaseLost(`${projection.name} build ${build.build} is no longer this process's to write`);
        }
        await projection.apply(events, query, table);
        await query(
          `update projection_builds
              set checkpoint_tx = $3, checkpoint_seq = $4, events_applied = events_applied + $5, last_event_at = $6,
                  lease_until = now() + make_interval(secs => $7::double precision / 1000)
            where name = $1 and build = $2`,
          [projection.name, build.build, last.position.tx.toString(), last.position.seq.toString(), batch.length, last.recordedAt, leaseMs],
        );
        if (current.status === "live") {
          await query("select pg_notify($1, $2)", [PROJECTION_CHANNEL, JSON.stringify({ projection: projection.name, position: formatPosition(last.position) })]);
        }
      });
      checkpoint = last.position;
    };

    const promoteIfBuilding = async () => {
      if (status !== "building") return;
      await driver.transaction(async (query) => {
        const current = await readBuild(query, projection.name, build.build, true);
        if (!current || current.status !== "building") return;
        await promote(query, current, projection.tables);
        await query("select pg_notify($1, $2)", [PROJECTION_CHANNEL, JSON.stringify({ projection: projection.name, position: formatPosition(current.checkpoint), promoted: true })]);
      });
      status = "live";
      log(`${projection.name}: build ${build.build} (version ${build.version}) is live`);
    };

    const subscription = store.subscribe({
      after: checkpoint,
      batchSize,
      handle: applyBatch,
      onCaughtUp: () => {
        promoteIfBuilding().catch((error: unknown) => log(`${projection.name}: promotion failed: ${String(error)}`));
      },
      onError: (error) => {
        // Only this worker's own entry: another worker may already have taken the build's key.
        if (workers.get(key(projection.name, build.build)) === self) workers.delete(key(projection.name, build.build));
        clearInterval(renew);
        if (error instanceof LeaseLost) {
          log(error.message);
          return;
        }
        failed.set(projection.name, error);
        log(`${projection.name}: build ${build.build} stopped: ${error instanceof Error ? error.message : String(error)}`);
      },
    });
    const renew = setInterval(() => {
      acquireLease(driver.query, projection.name, build.build, owner, leaseMs)
        .then((held) => {
          if (!held) void stopWorker(projection.name, build.build, false, self);
        })
        .catch(() => undefined);
    }, Math.max(100, Math.floor(leaseMs / 3)));
    const self: Worker = { build: build.build, subscription, renew };
    workers.set(key(projection.name, build.build), self);
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
    for (const projection of projections) {
      if (failed.has(projection.name)) continue;
      let builds = await listBuilds(driver.query, projection.name);
      const live = builds.find((b) => b.status === "live");
      if (live && live.version > projection.version) continue; // newer code runs elsewhere
      if (!builds.some((b) => b.version === projection.version)) {
        await startBuild(driver, projection.name, projection.version, createTables(projection));
        builds = await listBuilds(driver.query, projection.name);
      }
      for (const build of builds) {
        if (build.version !== projection.version) continue;
        if (workers.has(key(projection.name, build.build))) continue;
        if (await acquireLease(driver.query, projection.name, build.build, owner, leaseMs)) {
          const fresh = await readBuild(driver.query, projection.name, build.build);
          if (stopped) {
            await releaseLease(driver.query, projection.name, build.build, owner);
            return;
          }
          if (fresh && fresh.status !== "retired") runWorker(projection, fresh);
        }
      }
    }
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
      const failure = [...failed.values()][0];
      if (failure) throw failure instanceof Error ? failure : new Error(`projection failed: ${JSON.stringify(failure)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  ready.catch(() => undefined);

  const scanner = setInterval(() => {
    if (!stopped) scan().catch((error: unknown) => log(`projector scan failed: ${String(error)}`));
  }, scanIntervalMs);

  return {
    ready,
    stop: async () => {
      stopped = true;
      clearInterval(scanner);
      // A scan still running could start a worker after the ones below are stopped.
      await scanning?.catch(() => undefined);
      for (const [id, worker] of [...workers]) {
        const name = id.slice(0, id.lastIndexOf("#"));
        await stopWorker(name, worker.build, true);
      }
    },
  };
};
