import { formatPosition, parsePosition, START, type EventStore, type GlobalPosition, type RecordedEvent, type SqlDriver, type Subscription } from "@etd/event-store";

/*
 * A reactor follows the log with its own checkpoint and carries out what events ask for outside
 * the log (DESIGN §1, §8): erasing files and keys, later sending mail and publishing. The
 * checkpoint moves only after a batch's effects have all finished, so a crash at any point repeats
 * the effects of that batch on restart and never skips one: every effect must be idempotent.
 * Several processes may run the same reactor; with idempotent effects that only costs repeats.
 */

export interface Reactor {
  /** Names the checkpoint; never reuse a name for a different reactor. */
  readonly name: string;
  /** Carries out what the event asks for, idempotently; throwing retries the batch later. */
  react(event: RecordedEvent): Promise<void>;
  /** A whole batch at once, for reactors whose effects may overlap (several mails in flight). */
  reactToBatch?(events: readonly RecordedEvent[]): Promise<void>;
}

export interface RunningReactor {
  stop(): Promise<void>;
}

const CHECKPOINT_SQL = /* sql */ `
create table if not exists reactor_checkpoints (
  name text primary key,
  position text not null,
  updated_at timestamptz not null default now()
);
`;

const readCheckpoint = async (driver: SqlDriver, name: string): Promise<GlobalPosition> => {
  const [row] = await driver.query("select position from reactor_checkpoints where name = $1", [name]);
  return (row && parsePosition(row.position as string)) || START;
};

const saveCheckpoint = async (driver: SqlDriver, name: string, position: GlobalPosition): Promise<void> => {
  await driver.query(
    `insert into reactor_checkpoints (name, position) values ($1, $2)
       on conflict (name) do update set position = excluded.position, updated_at = now()`,
    [name, formatPosition(position)],
  );
};

const RETRY_MS = { first: 500, max: 30_000 };

/** Starts following the log from the reactor's checkpoint; a failed batch is retried with backoff. */
export const startReactor = async (
  { driver, store, log = (message) => console.error(`[reactor] ${message}`) }: { driver: SqlDriver; store: EventStore; log?: (message: string) => void },
  reactor: Reactor,
): Promise<RunningReactor> => {
  await driver.query(CHECKPOINT_SQL);
  let stopped = false;
  let subscription: Subscription | undefined;
  let retryTimer: NodeJS.Timeout | undefined;

  const retry = (delayMs: number, error: unknown) => {
    log(`${reactor.name} failed and retries in ${delayMs} ms: ${error instanceof Error ? error.message : String(error)}`);
    if (stopped) return;
    retryTimer = setTimeout(() => {
      follow(Math.min(delayMs * 2, RETRY_MS.max)).catch((cause: unknown) => retry(Math.min(delayMs * 2, RETRY_MS.max), cause));
    }, delayMs);
  };

  /** `delayMs`: the wait before the next attempt should this one fail; a handled batch resets it. */
  const follow = async (delayMs: number): Promise<void> => {
    if (stopped) return;
    let nextDelayMs = delayMs;
    const after = await readCheckpoint(driver, reactor.name);
    subscription = store.subscribe({
      after,
      handle: async (events: readonly RecordedEvent[]) => {
        if (reactor.reactToBatch) await reactor.reactToBatch(events);
        else for (const event of events) await reactor.react(event);
        await saveCheckpoint(driver, reactor.name, events.at(-1)!.position);
        nextDelayMs = RETRY_MS.first;
      },
      onError: (error) => retry(nextDelayMs, error),
    });
  };

  await follow(RETRY_MS.first);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(retryTimer);
      await subscription?.stop();
    },
  };
};
