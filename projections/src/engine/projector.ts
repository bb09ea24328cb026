import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { Result } from "effect";
import { comparePositions, formatPosition, type EventStore, type GlobalPosition, type RecordedEvent, type SqlDriver, type Subscription } from "@etd/event-store";
import { decodeEvent } from "@etd/events";
import type { ProjectedEvent, Projection } from "./projection.ts";
import { acquireLease, listBuilds, migrateRegistry, promote, readBuild, releaseLease, startBuild, tableOf, type Build, type BuildStatus } from "./registry.ts";

/*
 * Runs projections (DESIGN §5). For each projection it keeps every build that is not retired
 * moving: the live one follows the log, a newer one (a new version, or a rebuild) catches up
 * beside it and is promoted when it reaches the head. Each batch's read-model changes, its
 * checkpoint and a NOTIFY `{projection, position}` commit in one transaction; the transaction
 * first checks that this process still holds the build's lease and that the checkpoint is the one
 * it read from, so two projector processes never apply an event twice.
 *
 * One shared reader per process reads the log once for every build it feeds (see Reader); a build
 * that starts behind it (a rebuild beside a running process, a lease taken over) catches up on a
 * subscription of its own and then joins it.
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
  /** Rejects with the first error that stops a projection (it is not retried). */
  readonly failure: Promise<never>;
  stop(): Promise<void>;
}

/**
 * How many pages the shared reader may read ahead of the slowest member: enough to keep reading
 * and decoding while the members write, few enough to bound the memory held. A member that has
 * fallen behind applies everything waiting for it in one transaction (a rebuild writes each
 * touched row once per transaction, so fewer, larger ones cost less); live, pages are small.
 */
const AHEAD = 4;

/** The batch could not commit because another process took over the build (or retired it). */
class LeaseLost extends Error {}

/**
 * What stops a build for good: an event that does not decode, or the projection's apply failing
 * for any reason but a transient one (isTransient). A failure to read the log is tried again.
 */
class BuildBroken extends Error {}

/** How long a subscription that could not read the log, or a build that could not write, waits to try again. */
const RETRY_MS = 1000;

/**
 * A database error that says nothing about the events or the projection: the connection went
 * (SQLSTATE class 08, an administrator or a failover ending it, a client-side drop), or the
 * transaction lost a deadlock or serialization race. The batch rolled back; it is applied again.
 * If its commit went through before the connection did, the retry finds the checkpoint moved and
 * stops the worker; the next scan starts a fresh one from the stored checkpoint.
 */
const isTransient = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (/^(08|40001|40P01|57P0[123])/.test(code) || ["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT"].includes(code))) return true;
  // pg's and pg-pool's own words for a connection that has gone or could not be had; no code.
  return error instanceof Error && /Connection terminated|not queryable|timeout exceeded when trying to connect/.test(error.message);
};

const toProjected = (raw: RecordedEvent): ProjectedEvent => {
  const decoded = decodeEvent(raw);
  // Never skip: a projection that silently missed an event would be wrong forever.
  if (Result.isFailure(decoded)) throw new BuildBroken(`Cannot project event ${raw.eventId} of ${raw.streamId}: ${decoded.failure.message}`);
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

/** One build this process holds the lease of and applies events to. */
interface Worker {
  readonly projection: Projection;
  readonly build: number;
  /** The position of the last event applied (committed) to the build. */
  checkpoint: GlobalPosition;
  status: BuildStatus;
  /** While it catches up on its own, its subscription; undefined once the shared reader feeds it. */
  solo: Subscription | undefined;
  /** Its solo subscription has reached the head once: it may join the shared reader. */
  caughtUp: boolean;
  /** Pages the shared reader has handed it and it has not started to apply, oldest first. */
  readonly queue: (readonly ProjectedEvent[])[];
  /** The transaction applying its last pages taken from the queue. */
  applying: Promise<void>;
  /** Settles once the queue is empty and nothing is being applied (or the worker failed). */
  drained: Promise<void>;
  draining: boolean;
  readonly renew: ReturnType<typeof setInterval>;
  ended: boolean;
}

/**
 * The shared reader: one subscription per process whose batches are read, decrypted and decoded
 * once, then applied to every member build at the same time, each in its own transaction with its
 * own checkpoint. Reading the log once instead of once per projection is most of what a rebuild
 * of every read model saves (ADR 0005).
 */
interface Reader {
  readonly subscription: Subscription;
  /** The position of the last batch it delivered (or where it started). */
  position: GlobalPosition;
  readonly members: Set<Worker>;
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
  let reader: Reader | undefined;
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
      new Promise<void>((resolve) => setTimeout(resolve, RETRY_MS)).then(async () => {
        if (!stopped) await work();
      }),
    );
  };

  /** Takes the worker out of service: nothing feeds it and its lease is no longer renewed. */
  const detach = (worker: Worker) => {
    worker.ended = true;
    const id = key(worker.projection.name, worker.build);
    if (workers.get(id) === worker) workers.delete(id);
    reader?.members.delete(worker);
    clearInterval(worker.renew);
  };

  /** A batch failed: another process took the build over, or the projection broke (not retried). */
  const fail = (worker: Worker, error: unknown) => {
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
  const stopWorker = async (worker: Worker, release: boolean) => {
    detach(worker);
    await worker.solo?.stop();
    await worker.drained;
    if (release) await releaseLease(driver.query, worker.projection.name, worker.build, owner).catch(() => undefined);
  };

  /** Applies the events after the worker's checkpoint, and moves the checkpoint, in one transaction. */
  const applyTo = async (worker: Worker, batch: readonly ProjectedEvent[]) => {
    const { projection, build } = worker;
    const from = worker.checkpoint;
    const events = batch.filter((e) => comparePositions(e.position, from) > 0);
    const last = events[events.length - 1];
    if (!last) return;
    await driver.transaction(async (query) => {
      // Locks the build's row until commit: nobody else moves its checkpoint meanwhile.
      const [row] = await query(
        `select status, checkpoint_tx, checkpoint_seq, lease_owner = $3 and lease_until > now() as held
           from projection_builds where name = $1 and build = $2 for update`,
        [projection.name, build, owner],
      );
      const checkpoint = row && { tx: BigInt(row.checkpoint_tx as string), seq: BigInt(row.checkpoint_seq as string) };
      if (!row || !checkpoint || row.status === "retired" || row.held !== true || comparePositions(checkpoint, from) !== 0) {
        throw new LeaseLost(`${projection.name} build ${build} is no longer this process's to write`);
      }
      // A build nobody reads yet need not wait for its commits to reach the disk: a crash can only
      // lose its last few batches whole, changes and checkpoint together, and they are applied again.
      if (row.status === "building") await query("set local synchronous_commit = off");
      await projection.apply(events, query, (base) => tableOf({ version: projection.version, build }, base));
      // The checkpoint moves with the changes; a live read model also tells listeners (at commit).
      await query(
        `with moved as (
           update projection_builds
              set checkpoint_tx = $3, checkpoint_seq = $4, events_applied = events_applied + $5, last_event_at = $6,
                  lease_until = now() + make_interval(secs => $7::double precision / 1000)
            where name = $1 and build = $2
           returning status)
         select pg_notify($8, $9) from moved where status = 'live'`,
        [
          projection.name,
          build,
          last.position.tx.toString(),
          last.position.seq.toString(),
          events.length,
          last.recordedAt,
          leaseMs,
          PROJECTION_CHANNEL,
          JSON.stringify({ projection: projection.name, position: formatPosition(last.position) }),
        ],
      );
    });
    worker.checkpoint = last.position;
  };

  const promoteIfBuilding = async (worker: Worker) => {
    const { projection, build } = worker;
    if (worker.status !== "building" || worker.ended) return;
    await driver.transaction(async (query) => {
      const current = await readBuild(query, projection.name, build, true);
      if (!current || current.status !== "building") return;
      await promote(query, current, projection.tables);
      await query("select pg_notify($1, $2)", [PROJECTION_CHANNEL, JSON.stringify({ projection: projection.name, position: formatPosition(current.checkpoint), promoted: true })]);
    });
    worker.status = "live";
    log(`${projection.name}: build ${build} (version ${projection.version}) is live`);
  };

  /** After the batches already handed to it. */
  const promoteLater = (worker: Worker) => {
    worker.drained
      .then(() => promoteIfBuilding(worker))
      .catch((error: unknown) => log(`${worker.projection.name}: promotion failed: ${String(error)}`));
  };

  /** Queues a batch for a member: its batches apply one after another, in log order. */
  const handOver = (worker: Worker, events: readonly ProjectedEvent[]) => {
    worker.queue.push(events);
    if (worker.queue.length === 1 && !worker.draining) worker.drained = drain(worker);
  };

  /** Applies the queue in log order, everything waiting at once, until it is empty. */
  const drain = async (worker: Worker) => {
    worker.draining = true;
    try {
      while (worker.queue.length > 0 && !worker.ended) {
        const events = worker.queue.splice(0).flat();
        worker.applying = applyTo(worker, events);
        try {
          await worker.applying;
        } catch (error) {
          if (!isTransient(error)) throw error;
          log(`${worker.projection.name}: writing failed, trying again in ${RETRY_MS} ms: ${String(error)}`);
          worker.queue.unshift(events);
          // The reader's back-pressure waits on this: it must wait out the pause, not spin on a failure.
          worker.applying = new Promise((resolve) => setTimeout(resolve, RETRY_MS));
          await worker.applying;
        }
      }
    } catch (error) {
      fail(worker, error);
    } finally {
      worker.queue.length = 0;
      worker.draining = false;
    }
  };

  /** A build that caught up on its own joins the shared reader once it is not behind it. */
  const admitCaughtUp = async (shared: Reader) => {
    for (const worker of [...workers.values()]) {
      if (!worker.solo || !worker.caughtUp || comparePositions(worker.checkpoint, shared.position) < 0) continue;
      const solo = worker.solo;
      worker.solo = undefined;
      await solo.stop(); // its checkpoint can only move forward meanwhile: still not behind
      if (worker.ended) continue;
      // The reader may have been replaced while the solo stopped: then catch up alone again.
      if (reader === shared) shared.members.add(worker);
      else runSolo(worker);
    }
  };

  const startReader = (members: readonly Worker[]): Reader => {
    const from = members.map((w) => w.checkpoint).reduce((a, b) => (comparePositions(a, b) <= 0 ? a : b));
    const shared: Reader = {
      position: from,
      members: new Set(members),
      subscription: store.subscribe({
        after: from,
        batchSize,
        handle: async (batch) => {
          await admitCaughtUp(shared);
          if (shared.members.size > 0) {
            // Decoded once for every member; a member ahead of the batch skips what it has.
            const events = batch.map(toProjected);
            for (const worker of shared.members) handOver(worker, events);
            // Read on while the members apply, but never more than a few batches ahead of any.
            for (const worker of [...shared.members]) while (worker.queue.length >= AHEAD && !worker.ended) await worker.applying.catch(() => undefined);
          }
          shared.position = batch[batch.length - 1]!.position;
        },
        onCaughtUp: () => {
          for (const worker of shared.members) promoteLater(worker);
        },
        onError: (error) => {
          // An event that does not decode would fail every member the same way.
          if (error instanceof BuildBroken) {
            for (const worker of [...shared.members]) fail(worker, error);
            return;
          }
          log(`reading the log failed, trying again in ${RETRY_MS} ms: ${String(error)}`);
          if (reader === shared) reader = undefined;
          const members = [...shared.members];
          later(async () => {
            // What they were handed is applied first, so nothing else writes to them meanwhile.
            await Promise.all(members.map((worker) => worker.drained));
            await putToWork(members);
          });
        },
      }),
    };
    return shared;
  };

  const newWorker = (projection: Projection, build: Build): Worker => {
    const worker: Worker = {
      projection,
      build: build.build,
      checkpoint: build.checkpoint,
      status: build.status,
      solo: undefined,
      caughtUp: false,
      queue: [],
      applying: Promise.resolve(),
      drained: Promise.resolve(),
      draining: false,
      ended: false,
      renew: setInterval(() => {
        acquireLease(driver.query, projection.name, build.build, owner, leaseMs)
          .then((held) => {
            if (!held && !worker.ended) track(stopWorker(worker, false));
          })
          .catch(() => undefined);
      }, Math.max(100, Math.floor(leaseMs / 3))),
    };
    workers.set(key(projection.name, build.build), worker);
    return worker;
  };

  /** Catches the worker up on a subscription of its own; it joins the shared reader from there. */
  const runSolo = (worker: Worker) => {
    const solo: Subscription = store.subscribe({
      after: worker.checkpoint,
      batchSize,
      handle: async (batch) => {
        const events = batch.map(toProjected);
        try {
          await applyTo(worker, events);
        } catch (error) {
          // A transient error goes to onError as it is, and is tried again from the checkpoint.
          if (error instanceof LeaseLost || isTransient(error)) throw error;
          throw new BuildBroken(error instanceof Error ? error.message : String(error), { cause: error });
        }
      },
      onCaughtUp: () => {
        worker.caughtUp = true;
        promoteLater(worker);
      },
      onError: (error) => {
        if (error instanceof BuildBroken || error instanceof LeaseLost) {
          fail(worker, error instanceof BuildBroken && error.cause !== undefined ? error.cause : error);
          return;
        }
        // Not ours to retry if it was being stopped: the shared reader has taken the build over.
        if (worker.solo !== solo) return;
        log(`${worker.projection.name}: following the log failed, trying again in ${RETRY_MS} ms: ${String(error)}`);
        worker.solo = undefined;
        later(() => {
          if (!worker.ended && !worker.solo && !reader?.members.has(worker)) runSolo(worker);
        });
      },
    });
    worker.solo = solo;
  };

  /** Newly leased builds form the shared reader if there is none yet; otherwise they catch up alone. */
  const putToWork = async (builds: readonly Worker[]) => {
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
    if (!reader) reader = startReader(going);
    else for (const worker of going) runSolo(worker);
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
    const started: Worker[] = [];
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
          if (fresh && fresh.status !== "retired") started.push(newWorker(projection, fresh));
          else await releaseLease(driver.query, projection.name, build.build, owner);
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
