import { START, type GlobalPosition, type RecordedEvent, type SubscribeOptions, type Subscription } from "./port.ts";

/**
 * A wake-up that cannot be lost: `wait` returns at once if `ring` was called since the caller
 * took its `ticket`, so a ring that lands while a reader is busy still wakes it afterwards.
 */
export class Doorbell {
  #rings = 0;
  #waiters = new Set<() => void>();

  ticket(): number {
    return this.#rings;
  }

  ring(): void {
    this.#rings += 1;
    for (const wake of this.#waiters) wake();
    this.#waiters.clear();
  }

  /** Resolves on a ring after `ticket`, after `timeoutMs`, or when `signal` aborts. */
  wait(ticket: number, timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (this.#rings !== ticket || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal.addEventListener("abort", done, { once: true });
      this.#waiters.add(done);
    });
  }
}

export interface FollowLogDeps {
  readAll(after: GlobalPosition, limit: number): Promise<RecordedEvent[]>;
  doorbell: Doorbell;
  /** Polling covers wake-ups that never come (a lost NOTIFY, a horizon that moved later). */
  pollIntervalMs: number;
  /** Called once when the subscription starts, e.g. to begin listening for other processes. */
  onStart?: () => void;
}

/** Catch up from a position, then stay live: read a page, hand it over, wait for a wake-up. */
export const followLog = (deps: FollowLogDeps, options: SubscribeOptions): Subscription => {
  const batchSize = options.batchSize ?? 500;
  const stopping = new AbortController();
  deps.onStart?.();

  const run = async () => {
    let after = options.after ?? START;
    let caughtUp = false;
    // A full page means more is likely waiting: the next page is read while this one is handled.
    let next: { ticket: number; page: Promise<RecordedEvent[]> } | undefined;
    const read = (from: GlobalPosition) => {
      const ticket = deps.doorbell.ticket(); // before the read, so no ring during it is lost
      const page = deps.readAll(from, batchSize);
      page.catch(() => undefined); // awaited below; a stop in between must not leave it unhandled
      return { ticket, page };
    };
    try {
      while (!stopping.signal.aborted) {
        const { ticket, page } = next ?? read(after);
        next = undefined;
        const batch = await page;
        if (stopping.signal.aborted) return;
        if (batch.length > 0) {
          const last = batch[batch.length - 1]!.position;
          if (batch.length === batchSize) next = read(last);
          await options.handle(batch);
          after = last;
        }
        if (batch.length < batchSize) {
          if (!caughtUp) {
            caughtUp = true;
            options.onCaughtUp?.();
          }
          await deps.doorbell.wait(ticket, deps.pollIntervalMs, stopping.signal);
        }
      }
    } finally {
      // Stopped (or failed) while a page was being read ahead: that read ends before we do.
      await next?.page.catch(() => undefined);
    }
  };

  const done = run().catch((error: unknown) => {
    stopping.abort();
    if (options.onError) options.onError(error);
    else console.error("event store subscription stopped", error);
  });

  return {
    done,
    stop: async () => {
      stopping.abort();
      await done;
    },
  };
};
