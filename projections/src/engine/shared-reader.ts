import { comparePositions, type EventStore, type GlobalPosition, type Subscription } from "@etd/event-store";
import type { BuildWorker } from "./build-worker.ts";
import { BuildBroken, RETRY_MS } from "./retry-policy.ts";
import { toProjected } from "./to-projected.ts";

/*
 * The shared reader: one subscription per process whose batches are read, decrypted and decoded
 * once, then applied to every member build at the same time, each in its own transaction with its
 * own checkpoint. Reading the log once instead of once per projection is most of what a rebuild
 * of every read model saves (ADR 0005).
 */

/**
 * How many pages the shared reader may read ahead of the slowest member: enough to keep reading
 * and decoding while the members write, few enough to bound the memory held. A member that has
 * fallen behind applies everything waiting for it in one transaction (a rebuild writes each
 * touched row once per transaction, so fewer, larger ones cost less); live, pages are small.
 */
const AHEAD = 4;

export interface SharedReader {
  readonly subscription: Subscription;
  /** The position of the last batch it delivered (or where it started). */
  position: GlobalPosition;
  readonly members: Set<BuildWorker>;
}

/** What the shared reader needs from the projector that runs it. */
export interface ReaderHost {
  readonly store: EventStore;
  readonly batchSize: number;
  readonly log: (message: string) => void;
  readonly fail: (worker: BuildWorker, error: unknown) => void;
  /** Runs the work after the retry pause, unless the projector has stopped by then. */
  readonly later: (work: () => Promise<void> | void) => void;
  /** Every worker of this process, some of them catching up alone. */
  readonly workers: () => readonly BuildWorker[];
  /** Whether this reader is still the process's one (a failed reader is replaced). */
  readonly isCurrent: (reader: SharedReader) => boolean;
  /** The reader failed: the process has none until the builds are put to work again. */
  readonly dropReader: (reader: SharedReader) => void;
  readonly startSolo: (worker: BuildWorker) => void;
  /** Gives the builds a reader again: this one if there is none, otherwise a solo each. */
  readonly putToWork: (builds: readonly BuildWorker[]) => Promise<void>;
}

/** A build that caught up on its own joins the shared reader once it is not behind it. */
const admitCaughtUp = async (host: ReaderHost, shared: SharedReader) => {
  for (const worker of host.workers()) {
    if (!worker.solo || !worker.caughtUp || comparePositions(worker.checkpoint, shared.position) < 0) continue;
    const solo = worker.solo;
    worker.solo = undefined;
    await solo.stop(); // its checkpoint can only move forward meanwhile: still not behind
    if (worker.ended) continue;
    // The reader may have been replaced while the solo stopped: then catch up alone again.
    if (host.isCurrent(shared)) shared.members.add(worker);
    else host.startSolo(worker);
  }
};

/** Starts reading from the earliest checkpoint among the members. */
export const startSharedReader = (host: ReaderHost, members: readonly BuildWorker[]): SharedReader => {
  const from = members.map((w) => w.checkpoint).reduce((a, b) => (comparePositions(a, b) <= 0 ? a : b));
  const shared: SharedReader = {
    position: from,
    members: new Set(members),
    subscription: host.store.subscribe({
      after: from,
      batchSize: host.batchSize,
      handle: async (batch) => {
        await admitCaughtUp(host, shared);
        if (shared.members.size > 0) {
          // Decoded once for every member; a member ahead of the batch skips what it has.
          const events = batch.map(toProjected);
          for (const worker of shared.members) worker.handOver(events);
          // Read on while the members apply, but never more than a few batches ahead of any.
          for (const worker of [...shared.members]) while (worker.queue.length >= AHEAD && !worker.ended) await worker.applying.catch(() => undefined);
        }
        shared.position = batch[batch.length - 1]!.position;
      },
      onCaughtUp: () => {
        for (const worker of shared.members) worker.promoteLater();
      },
      onError: (error) => {
        // An event that does not decode would fail every member the same way.
        if (error instanceof BuildBroken) {
          for (const worker of [...shared.members]) host.fail(worker, error);
          return;
        }
        host.log(`reading the log failed, trying again in ${RETRY_MS} ms: ${String(error)}`);
        host.dropReader(shared);
        const members = [...shared.members];
        host.later(async () => {
          // What they were handed is applied first, so nothing else writes to them meanwhile.
          await Promise.all(members.map((worker) => worker.drained));
          await host.putToWork(members);
        });
      },
    }),
  };
  return shared;
};
