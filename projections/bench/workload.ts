import { Worker } from "node:worker_threads";
import { openPostgresDriver, openSealedSqlEventStore, type EncryptingEventStore, type SealedSqlEventStore, type SqlDriver } from "@etd/event-store";
import type { PlannedWork, PlanOptions } from "./plan-log.ts";
import type { PlanReply, PlanRequest } from "./plan-worker.ts";
import type { StreamWork } from "./staff-roster.ts";

/*
 * A realistic event log, fast: the workload behind the projection rebuild benchmark (P2) and the
 * rebuild crash test (R3). Orders come from the demo generator's place-order bodies through real
 * intake decoding, and live their lives through the real deciders (order-life.ts); the team and
 * the gateways have theirs (staff-roster.ts). Everything goes through the sealed event store, so
 * personal data is encrypted per order as in production and permanent deletes destroy keys.
 *
 * Speed: an order's whole history is one append (two around a permanent delete), one statement
 * with its stream's new key when commits do not wait for the WAL, else a writer appends 16
 * orders in one transaction of the store's (one commit for them all); a few writers work at
 * once (the machine has two cores, which PostgreSQL and this process share: 16 writers wrote
 * slower than 4 here), and the events are planned on a worker thread (plan-worker.ts) while the main
 * thread appends.
 *
 * Deterministic: the same options give the same streams with the same events and event ids (the
 * interleaving of streams in the global log depends on timing, and ciphertexts on random IVs).
 */

export interface GenerateLogOptions extends PlanOptions {
  /**
   * Where to write: a driver the caller owns (used as it is; it needs two connections per writer,
   * one for a writer's transaction and one for the stream keys made meanwhile), or a connection
   * string (a pool is opened and closed).
   */
  readonly driver?: SqlDriver;
  readonly connectionString?: string;
  /** Writers at work at once (default 4). */
  readonly concurrency?: number;
  /**
   * Orders a writer appends in one transaction (1: each append commits on its own). Default: 1
   * with `synchronousCommit: false`, 16 otherwise. A lone order is one statement, its stream's key
   * made in it (es_append_with_key), and without the wait for the WAL its commit costs little; in
   * a shared transaction each order's key is made outside it, three statements more per order.
   * 30,000 events here, back to back, 16 then 1: this process's CPU 23.6 and 29.1 s against 19.0
   * and 18.7 s, PostgreSQL's 10.9 and 13.1 s against 8.3 and 8.8 s. With the wait, one commit per
   * order costs more than those statements.
   */
  readonly ordersPerTransaction?: number;
  /**
   * False: commit without waiting for the WAL to reach disk (`synchronous_commit = off` on the
   * database while the log is written, reset afterwards), about twice as fast here. For throwaway
   * databases: the events are the same, only a crash of the server could lose the last ones.
   * Needs `connectionString` (the setting reaches the connections opened after it).
   */
  readonly synchronousCommit?: boolean;
  /** Called after each stream's appends have committed, with the number of events written so far. */
  readonly onProgress?: (eventsWritten: number) => void;
}

export interface GeneratedLog {
  readonly events: number;
  readonly orders: number;
  /** Orders whose key was destroyed (permanent deletes). */
  readonly erasedOrders: number;
  readonly appends: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
}

const execute = async (store: EncryptingEventStore, work: StreamWork): Promise<number> => {
  let written = 0;
  for (const append of work.appends) {
    if (append.forgetFirst) await store.forget(work.streamId);
    await store.append(work.streamId, append.events, { expectedVersion: append.expectedVersion });
    written += append.events.length;
  }
  return written;
};

/** Orders whose appends can share a transaction with other orders': one append, no key to destroy. */
const joinsTransaction = (work: PlannedWork): boolean => work.order && work.appends.length === 1 && !work.appends[0]!.forgetFirst;

/**
 * Several orders' appends in one transaction, through the store's own transaction (each append
 * is still `es_append`, sealed with the stream's key): one commit and one wake-up for the lot
 * instead of one per order.
 */
const executeTogether = (store: SealedSqlEventStore, works: readonly PlannedWork[]): Promise<number[]> =>
  store.transaction(async (bound) => {
    const written: number[] = [];
    for (const work of works) {
      const [append] = work.appends;
      await bound.append(work.streamId, append!.events, { expectedVersion: append!.expectedVersion });
      written.push(append!.events.length);
    }
    return written;
  });

/** The plan, made on a worker thread a batch ahead of the writers that take from it. */
interface WorkSource {
  next(): Promise<PlannedWork | undefined>;
  close(): Promise<void>;
}

const BATCH = 200;

const plannedOnWorker = (options: PlanOptions): WorkSource => {
  const worker = new Worker(new URL("./plan-worker.ts", import.meta.url), {
    workerData: { events: options.events, seed: options.seed, now: options.now, firstOrderId: options.firstOrderId, teamAndGateways: options.teamAndGateways } satisfies PlanOptions,
  });
  const waiting: { resolve: (reply: PlanReply) => void; reject: (error: Error) => void }[] = [];
  let broken: Error | undefined;
  const fail = (error: unknown) => {
    broken ??= error instanceof Error ? error : new Error(String(error));
    for (const w of waiting.splice(0)) w.reject(broken);
  };
  worker.on("message", (reply: PlanReply) => waiting.shift()?.resolve(reply));
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the workload's planning thread exited (code ${code})`)));
  const ask = (): Promise<PlanReply> =>
    new Promise((resolve, reject) => {
      if (broken) return reject(broken);
      waiting.push({ resolve, reject });
      worker.postMessage({ want: BATCH } satisfies PlanRequest);
    });

  let buffer: readonly PlannedWork[] = [];
  let at = 0;
  let done = false;
  let ahead: Promise<PlanReply> | undefined = ask();
  let refilling: Promise<void> | undefined;
  const refill = async () => {
    const reply = await (ahead ?? ask());
    ahead = undefined;
    if ("error" in reply) throw new Error(`planning the workload failed: ${reply.error}`);
    buffer = reply.works;
    at = 0;
    done = reply.done;
    if (!done) ahead = ask();
  };
  return {
    next: async () => {
      for (;;) {
        if (at < buffer.length) return buffer[at++];
        if (done) return undefined;
        refilling ??= refill().finally(() => (refilling = undefined));
        await refilling;
      }
    },
    close: async () => {
      worker.removeAllListeners("exit");
      // The last request may still be in flight; its answer is not wanted.
      ahead?.catch(() => undefined);
      await worker.terminate();
    },
  };
};

/** Sets the database's default `synchronous_commit` for connections opened from now on. */
const setCommitWait = async (connectionString: string, wait: boolean): Promise<void> => {
  const driver = await openPostgresDriver({ connectionString, maxConnections: 1 });
  try {
    const name = String((await driver.query("select current_database() as name"))[0]!.name);
    await driver.query(`alter database "${name.replaceAll('"', '""')}" ${wait ? "reset synchronous_commit" : "set synchronous_commit = off"}`);
  } finally {
    await driver.close();
  }
};

/** Appends a generated log of exactly `events` events to the event store on the database. */
export const generateLog = async (options: GenerateLogOptions): Promise<GeneratedLog> => {
  const concurrency = options.concurrency ?? 4;
  if (!options.driver && !options.connectionString) throw new Error("generateLog needs a driver or a connectionString");
  const relaxed = options.synchronousCommit === false;
  const together = options.ordersPerTransaction ?? (relaxed ? 1 : 16);
  if (relaxed && (options.driver || !options.connectionString)) throw new Error("synchronousCommit: false needs a connectionString, not a driver");
  if (relaxed) await setCommitWait(options.connectionString!, false);
  const driver = options.driver ?? (await openPostgresDriver({ connectionString: options.connectionString!, maxConnections: 2 * concurrency + 1 }));
  const store = await openSealedSqlEventStore(driver);
  const plan = plannedOnWorker(options);
  const started = performance.now();
  let events = 0;
  let orders = 0;
  let erasedOrders = 0;
  let appends = 0;
  const written = (work: PlannedWork, count: number) => {
    events += count;
    appends += work.appends.length;
    if (work.order) orders++;
    if (work.appends.some((a) => a.forgetFirst)) erasedOrders++;
    options.onProgress?.(events);
  };

  try {
    let first = await plan.next();
    for (; first?.setup; first = await plan.next()) written(first, await execute(store, first));
    let carried = first;
    const take = async (): Promise<PlannedWork | undefined> => {
      if (carried) {
        const work = carried;
        carried = undefined;
        return work;
      }
      return plan.next();
    };

    // A staff or gateway stream takes several appends over the log, each at the version the one
    // before left: they run one after the other, chained in the order they are taken (before any
    // await, so in plan order). Each order stream is a single piece of work.
    const tails = new Map<string, Promise<unknown>>();
    const start = (work: PlannedWork): Promise<void> => {
      if (work.order) return execute(store, work).then((count) => written(work, count));
      const run = (tails.get(work.streamId) ?? Promise.resolve()).then(async () => written(work, await execute(store, work)));
      tails.set(work.streamId, run);
      return run.finally(() => {
        if (tails.get(work.streamId) === run) tails.delete(work.streamId);
      });
    };
    let failure: { error: unknown } | undefined;
    const writer = async () => {
      for (let work = await take(); work && !failure; work = await take()) {
        if (together === 1 || !joinsTransaction(work)) {
          await start(work);
          continue;
        }
        const group = [work];
        // Work that cannot join (a permanent delete, a staff change) starts beside the group.
        let beside: Promise<void> | undefined;
        while (group.length < together && !beside) {
          const next = await take();
          if (!next) break;
          if (joinsTransaction(next)) group.push(next);
          else {
            beside = start(next);
            // Awaited after the group; until then its failure must not count as unhandled.
            beside.catch(() => undefined);
          }
        }
        const counts = await executeTogether(store, group);
        group.forEach((done, i) => written(done, counts[i]!));
        await beside;
      }
    };
    await Promise.all(
      Array.from({ length: concurrency }, () =>
        writer().catch((error: unknown) => {
          failure ??= { error };
        }),
      ),
    );
    if (failure) throw failure.error;
  } finally {
    await plan.close();
    await store.close();
    if (!options.driver) await driver.close();
    if (relaxed) await setCommitWait(options.connectionString!, true);
  }
  const seconds = (performance.now() - started) / 1000;
  return { events, orders, erasedOrders, appends, seconds, eventsPerSecond: events / seconds };
};
