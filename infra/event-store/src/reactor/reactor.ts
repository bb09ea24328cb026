import { hostname } from "node:os";
import { randomUUID } from "node:crypto";
import { formatPosition, parsePosition, START, type EventStore, type GlobalPosition, type RecordedEvent, type Subscription } from "../port.ts";
import { migrateTables } from "../sql/migrate-tables.ts";
import type { SqlDriver } from "../sql/sql-event-store.ts";

/*
 * A reactor follows the log with its own checkpoint and carries out what events ask for outside
 * the log (DESIGN §1, §8): erasing files and keys, sending mail, publishing to Kafka. The
 * checkpoint moves only after a batch's effects have all finished, so a crash at any point repeats
 * the effects of that batch on restart and never skips one: every effect must be idempotent.
 *
 * Several processes may run the same reactor (ADR 0023): one at a time follows the log, the one
 * holding the reactor's lease; the others stand by and take over once the lease runs out (a
 * crash) or is let go (a clean stop). The checkpoint is written only while the lease is held, so
 * a process that lost it unnoticed (a long pause) cannot move the checkpoint under its successor,
 * and by its own clock it starts no batch after its lease's end. A pause in the middle of a batch
 * can still have that batch done twice, which idempotent effects (and the relay's event ids)
 * absorb; fencing the broker itself would need a transactional producer (ADR 0023).
 */

export interface Reactor {
  /** Names the checkpoint and the lease; never reuse a name for a different reactor. */
  readonly name: string;
  /** Carries out what the event asks for, idempotently; throwing retries the batch later. */
  react(event: RecordedEvent): Promise<void>;
  /** A whole batch at once, for reactors whose effects may overlap (several mails in flight). */
  reactToBatch?(events: readonly RecordedEvent[]): Promise<void>;
  /** Events per batch (default the store's). */
  readonly batchSize?: number;
}

export interface RunningReactor {
  /** True while this process holds the reactor's lease and follows the log. */
  holdsLease(): boolean;
  stop(): Promise<void>;
}

export interface ReactorHost {
  readonly driver: SqlDriver;
  readonly store: EventStore;
  /** How long a lease lasts without renewal (default 15 s); renewed every third of it, or every second if sooner. */
  readonly leaseMs?: number;
  readonly log?: (message: string) => void;
}

const SQL = /* sql */ `
create table if not exists reactor_checkpoints (
  name text primary key,
  position text not null,
  updated_at timestamptz not null default now()
);
create table if not exists reactor_leases (
  name text primary key,
  owner text not null,
  expires_at timestamptz not null
);
-- Issue 28: since when the owner has held it, for the operator's screen.
alter table reactor_leases add column if not exists since timestamptz not null default now();
-- The last failure of each reactor, and an operator's request to try again now (issue 28, ADR 0039).
-- Written only when a batch fails, when the first batch after a failure succeeds, and on a request:
-- never on a healthy reactor's path.
create table if not exists reactor_failures (
  name text primary key,
  error text not null,
  failed_at timestamptz not null,
  retry_at timestamptz,
  retry_requested_at timestamptz
);
`;


/** The lease was found taken by another process while writing the checkpoint. */
class LeaseLost extends Error {}

const readCheckpoint = async (driver: SqlDriver, name: string): Promise<GlobalPosition> => {
  const [row] = await driver.query("select position from reactor_checkpoints where name = $1", [name]);
  return (row && parsePosition(row.position as string)) || START;
};

/** Writes the checkpoint only while `owner` holds the lease, in the same statement. */
const saveCheckpoint = async (driver: SqlDriver, name: string, position: GlobalPosition, owner: string): Promise<void> => {
  const rows = await driver.query(
    `insert into reactor_checkpoints (name, position)
       select $1, $2 where exists (select from reactor_leases where name = $1 and owner = $3 and expires_at > now())
       on conflict (name) do update set position = excluded.position, updated_at = now()
       returning name`,
    [name, formatPosition(position), owner],
  );
  if (rows.length === 0) throw new LeaseLost(`${name}: the lease passed to another process`);
};

/** Takes the lease if it is free, expired or already ours; renews it when ours. */
const takeLease = async (driver: SqlDriver, name: string, owner: string, leaseMs: number): Promise<boolean> => {
  const rows = await driver.query(
    `insert into reactor_leases (name, owner, expires_at) values ($1, $2, now() + make_interval(secs => $3::double precision / 1000))
       on conflict (name) do update set owner = excluded.owner, expires_at = excluded.expires_at,
         since = case when reactor_leases.owner = excluded.owner then reactor_leases.since else now() end
       where reactor_leases.owner = excluded.owner or reactor_leases.expires_at < now()
       returning owner`,
    [name, owner, leaseMs],
  );
  return rows.length > 0;
};

/** Whether another process holds the lease now: a read, so a standby asking often writes nothing. */
const heldElsewhere = async (driver: SqlDriver, name: string, owner: string): Promise<boolean> =>
  (await driver.query("select from reactor_leases where name = $1 and owner <> $2 and expires_at > now()", [name, owner])).length > 0;

const releaseLease = (driver: SqlDriver, name: string, owner: string) => driver.query("delete from reactor_leases where name = $1 and owner = $2", [name, owner]);

const RETRY_MS = { first: 500, max: 30_000 };

/** Error messages kept for the operator's screen are cut to this many characters. */
const ERROR_TEXT_MAX = 2000;

/** Records a failed batch and when it is tried again; best effort (the database may be what failed). */
const recordFailure = (driver: SqlDriver, name: string, error: unknown, delayMs: number) =>
  driver.query(
    `insert into reactor_failures (name, error, failed_at, retry_at) values ($1, $2, now(), now() + make_interval(secs => $3::double precision / 1000))
       on conflict (name) do update set error = excluded.error, failed_at = excluded.failed_at, retry_at = excluded.retry_at`,
    [name, (error instanceof Error ? error.message : String(error)).slice(0, ERROR_TEXT_MAX), delayMs],
  );

/** A batch succeeded after a failure: no retry is pending any more (the last error stays, with its time). */
const recordRecovery = (driver: SqlDriver, name: string) => driver.query("update reactor_failures set retry_at = null where name = $1", [name]);

/** Whether an operator asked for a retry since the last failure (the operations' ReactorRetryRequested). */
const retryRequested = async (driver: SqlDriver, name: string): Promise<boolean> =>
  (await driver.query("select from reactor_failures where name = $1 and retry_requested_at >= failed_at", [name])).length > 0;

/**
 * Asks the reactor's holder to try again now instead of at the end of its back-off: the effect of
 * an operator's ReactorRetryRequested (issue 28). Idempotent; the holder looks at it while it
 * waits to retry, so a request for a reactor that is not failing changes nothing. Stamped when it
 * is carried out rather than when it was asked: a failure between the two is retried too.
 */
export const requestReactorRetry = async (driver: Pick<SqlDriver, "query">, name: string): Promise<void> => {
  await driver.query("update reactor_failures set retry_requested_at = now() where name = $1", [name]);
};

/** Starts the reactor: it follows the log from its checkpoint while it holds the lease, and stands by otherwise. */
export const startReactor = async ({ driver, store, leaseMs = 15_000, log = (message) => console.error(`[reactor] ${message}`) }: ReactorHost, reactor: Reactor): Promise<RunningReactor> => {
  await migrateTables(driver, SQL);
  // Host and pid for the operator who reads reactor_leases; the random part tells apart two
  // processes with one pid on two hosts, and two runs of one reactor in one process (the tests).
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let stopped = false;
  let holding = false;
  let subscription: Subscription | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let nextDelayMs = RETRY_MS.first;
  /** A batch failed and none has succeeded since: the next success clears the pending retry. */
  let failing = false;
  /**
   * Until when this process may act, by its own clock: the lease's end counted from before the
   * renewal was asked. A process that was paused past it (a stopped VM, a long GC) finds it gone
   * before it starts a batch, rather than after, when its successor may already have redone it.
   */
  let heldUntil = 0;

  const unfollow = async () => {
    clearTimeout(retryTimer);
    retryTimer = undefined;
    const following = subscription;
    subscription = undefined;
    await following?.stop();
  };

  const follow = async (): Promise<void> => {
    if (stopped || !holding) return;
    const after = await readCheckpoint(driver, reactor.name);
    subscription = store.subscribe({
      after,
      ...(reactor.batchSize ? { batchSize: reactor.batchSize } : {}),
      handle: async (events: readonly RecordedEvent[]) => {
        if (Date.now() >= heldUntil) throw new LeaseLost(`${reactor.name}: the lease ran out before the batch began`);
        if (reactor.reactToBatch) await reactor.reactToBatch(events);
        else for (const event of events) await reactor.react(event);
        await saveCheckpoint(driver, reactor.name, events.at(-1)!.position, owner);
        if (failing) await recordRecovery(driver, reactor.name).catch(() => undefined);
        failing = false;
        nextDelayMs = RETRY_MS.first;
      },
      onError: (error) => {
        subscription = undefined;
        if (error instanceof LeaseLost) {
          holding = false;
          log(`${reactor.name}: ${error.message}; standing by`);
          return;
        }
        const delayMs = nextDelayMs;
        nextDelayMs = Math.min(delayMs * 2, RETRY_MS.max);
        log(`${reactor.name} failed and retries in ${delayMs} ms: ${error instanceof Error ? error.message : String(error)}`);
        failing = true;
        recordFailure(driver, reactor.name, error, delayMs).catch(() => undefined);
        if (stopped) return;
        retryTimer = setTimeout(() => {
          retryTimer = undefined;
          // A failure here leaves no subscription: the next turn of the lease starts one.
          follow().catch((cause: unknown) => log(`${reactor.name} could not resume: ${String(cause)}`));
        }, delayMs);
      },
    });
  };

  /** Renews the lease while held, or tries to take it; starts or stops following accordingly. */
  const tend = async () => {
    if (stopped) return;
    const asked = Date.now();
    // Writes only to renew (every third of the lease) or to take a lease seen free: each write is
    // a transaction that, while in flight, holds back every reader's view of the log.
    const ask = async (): Promise<boolean> => {
      if (holding ? heldUntil - asked > (leaseMs * 2) / 3 : await heldElsewhere(driver, reactor.name, owner)) return holding;
      const taken = await takeLease(driver, reactor.name, owner, leaseMs);
      if (taken) heldUntil = asked + leaseMs;
      return taken;
    };
    const held = await ask().catch((error: unknown) => {
      log(`${reactor.name}: the lease could not be renewed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    });
    if (held && !holding) {
      holding = true;
      await follow();
    } else if (!held && holding) {
      holding = false;
      log(`${reactor.name}: lease lost; standing by`);
      await unfollow();
    } else if (held && !subscription && !retryTimer) {
      await follow();
    } else if (held && retryTimer && (await retryRequested(driver, reactor.name).catch(() => false))) {
      // An operator's Retry: the back-off starts again from its first step, and the batch now.
      log(`${reactor.name}: retrying now, as an operator asked`);
      clearTimeout(retryTimer);
      retryTimer = undefined;
      nextDelayMs = RETRY_MS.first;
      await follow();
    }
  };

  let tending: Promise<void> = Promise.resolve();
  const tendInTurn = () => (tending = tending.then(tend).catch((error: unknown) => log(`${reactor.name}: ${String(error)}`)));
  await tendInTurn();
  // Looked at every second or sooner: a standby then takes over within a second of a clean stop.
  const timer = setInterval(() => void tendInTurn(), Math.max(100, Math.min(1_000, Math.floor(leaseMs / 3))));

  return {
    holdsLease: () => holding,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await tending;
      await unfollow();
      if (holding) await releaseLease(driver, reactor.name, owner).catch(() => undefined);
      holding = false;
    },
  };
};
