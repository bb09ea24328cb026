import type { EventStore, Subscription } from "@etd/event-store";
import type { BuildWorker } from "./build-worker.ts";
import { BuildBroken, isTransient, LeaseLost, RETRY_MS } from "./retry-policy.ts";
import { toProjected } from "./to-projected.ts";

/*
 * A build that starts behind the shared reader (a rebuild beside a running process, a lease taken
 * over) catches up on a subscription of its own, applying each batch as it is read; once it has
 * reached the head the shared reader admits it (see shared-reader.ts).
 */

/** What a solo subscription needs from the projector that runs it. */
export interface SoloHost {
  readonly store: EventStore;
  readonly batchSize: number;
  readonly log: (message: string) => void;
  readonly fail: (worker: BuildWorker, error: unknown) => void;
  /** Runs the work after the retry pause, unless the projector has stopped by then. */
  readonly later: (work: () => Promise<void> | void) => void;
  /** The shared reader feeds this worker now. */
  readonly isShared: (worker: BuildWorker) => boolean;
}

/** Catches the worker up on a subscription of its own; it joins the shared reader from there. */
export const startSoloReader = (host: SoloHost, worker: BuildWorker): void => {
  const solo: Subscription = host.store.subscribe({
    after: worker.checkpoint,
    batchSize: host.batchSize,
    handle: async (batch) => {
      const events = batch.map(toProjected);
      try {
        await worker.apply(events);
      } catch (error) {
        // A transient error goes to onError as it is, and is tried again from the checkpoint.
        if (error instanceof LeaseLost || isTransient(error)) throw error;
        throw new BuildBroken(error instanceof Error ? error.message : String(error), { cause: error });
      }
    },
    onCaughtUp: () => {
      worker.caughtUp = true;
      worker.promoteLater();
    },
    onError: (error) => {
      if (error instanceof BuildBroken || error instanceof LeaseLost) {
        host.fail(worker, error instanceof BuildBroken && error.cause !== undefined ? error.cause : error);
        return;
      }
      // Not ours to retry if it was being stopped: the shared reader has taken the build over.
      if (worker.solo !== solo) return;
      host.log(`${worker.projection.name}: following the log failed, trying again in ${RETRY_MS} ms: ${String(error)}`);
      worker.solo = undefined;
      host.later(() => {
        if (!worker.ended && !worker.solo && !host.isShared(worker)) startSoloReader(host, worker);
      });
    },
  });
  worker.solo = solo;
};
