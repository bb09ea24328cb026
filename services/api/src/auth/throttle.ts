import { throttleKey } from "../http/client-address.ts";
/*
 * Throttling of guesses (issue 9 item 6). A subject is the secret being guessed at: the e-mail of
 * a sign-in, the order id of a public lookup. Failed attempts are counted three ways, over a
 * sliding window:
 *
 * - per (subject, IP): one address guessing one subject is locked out after `perSubjectIp`
 *   failures, until the oldest of them leaves the window;
 * - per IP: one address trying many subjects is locked out after `perIp` failures;
 * - per subject, from any address: never a lockout, or an attacker could lock the real user out
 *   from addresses the user never uses. Instead every attempt on the subject waits an added delay
 *   that doubles with each failure past `freeFailures`, capped at `maxDelayMs`.
 *
 * An attacker's guesses on one subject are therefore bounded by `perSubjectIp` per address and
 * window, and each costs up to `maxDelayMs`; the owner, from an address that has not failed, is
 * answered after at most `maxDelayMs`. A success from an address forgets that address's failures
 * on that subject (not its failures on other subjects).
 *
 * A guess is checked and counted in one step (`attempt`): counted before the secret is checked,
 * taken back by a success, so that guesses sent in parallel cannot all pass the limit before the
 * first of them is counted; a guess refused by a lockout counts nothing.
 *
 * The counts live in a `FailureStore`: in this process's memory where it is the only process
 * (the embedded database), or in PostgreSQL where several API processes share the limits
 * (shared-throttle.ts, ADR 0040), so that two APIs behind the proxy do not double an attacker's
 * allowance. The arithmetic of the window and the delay is here, once, for both. Time comes from
 * an injectable clock (also for the database's rows), so tests need not wait out a window.
 */

export interface ThrottleLimits {
  /** Failures of one subject from one address before that pair is locked out. */
  readonly perSubjectIp: number;
  /** Failures from one address, over all subjects, before that address is locked out. */
  readonly perIp: number;
  readonly windowMs: number;
  /** Failures of one subject (from anywhere) answered without an added delay. */
  readonly freeFailures: number;
  /** The first added delay; each further failure doubles it. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  perSubjectIp: 5,
  perIp: 30,
  windowMs: 15 * 60_000,
  freeFailures: 5,
  baseDelayMs: 250,
  maxDelayMs: 3_000,
};

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** One guess: refused by a lockout (nothing counted), or counted as a failure and slowed down by `delayedMs`. */
export type Attempt = { readonly refused: true; readonly retryAfterMs: number } | { readonly refused: false; readonly delayedMs: number };

export interface Throttle {
  /** Milliseconds until this address may try this subject again (its own or the address's limit), or 0. */
  retryAfterMs(subject: string, ip: string): Promise<number>;
  /** The added delay an attempt on this subject would wait now, from its recent failures anywhere. */
  delayMs(subject: string): Promise<number>;
  /**
   * One guess at the subject from this address, checked and counted as one step in every process
   * sharing the store: when locked out, refused with nothing counted; otherwise counted as a
   * failure at once, then slowed down on the throttle's clock by the delay the failures before it
   * call for. A success takes it back (`recordSuccess`).
   */
  attempt(subject: string, ip: string): Promise<Attempt>;
  /**
   * This address got the subject right: its failures on this subject are forgotten (from the
   * pair, the subject's and the address's counts). Without an address, every failure of the
   * subject is forgotten, from whichever address.
   */
  recordSuccess(subject: string, ip?: string): Promise<void>;
}

/** A subject's and an address's failures inside the window, as much of them as a check reads. */
export interface FailureCounts {
  /** Times (ms) of the (subject, address) pair's failures, newest first: at least the newest `perSubjectIp`. */
  readonly pair: readonly number[];
  /** Times of the address's failures over all subjects, newest first: at least the newest `perIp`. */
  readonly client: readonly number[];
  /** The subject's failures from anywhere; a store may stop counting at `subjectCountCap(limits)`. */
  readonly subject: number;
}

/**
 * Where the failures are kept. A subject arrives normalised (trimmed, lower case) and an address
 * as its throttle key (client-address.ts); failures at or before `since` are outside the window.
 */
export interface FailureStore {
  counts(subject: string, client: string, since: number): Promise<FailureCounts>;
  subjectFailures(subject: string, since: number): Promise<number>;
  /**
   * Reads the counts and, when the pair has fewer than `perSubjectIp` and the address fewer than
   * `perIp` failures in the window (neither is locked out), records a failure at `now`: one step
   * for this address however many processes share the store, so that parallel guesses are
   * counted in turn. Answers the counts from before it.
   */
  countIfOpen(subject: string, client: string, now: number, since: number): Promise<{ readonly before: FailureCounts; readonly recorded: boolean }>;
  /** Forgets the subject's failures from this address, or from every address. */
  forget(subject: string, client: string | undefined): Promise<void>;
}

/** The subject's failures past which the delay no longer grows: a store need count no further. */
export const subjectCountCap = (limits: ThrottleLimits): number =>
  limits.freeFailures + Math.max(0, Math.ceil(Math.log2(Math.max(1, limits.maxDelayMs / Math.max(1, limits.baseDelayMs))))) + 1;

export const createThrottle = (
  overrides: Partial<ThrottleLimits> = {},
  clock: Clock = systemClock,
  storeFor: (limits: ThrottleLimits) => FailureStore = memoryFailures,
): Throttle => {
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  const store = storeFor(limits);
  // Case-insensitive e-mails; spaces around the subject do not make another one.
  const subjectOf = (subject: string) => subject.trim().toLowerCase();

  /** Until the oldest of the last `limit` failures leaves the window, or 0 below the limit. */
  const lockedFor = (newestFirst: readonly number[], limit: number, now: number): number =>
    newestFirst.length < limit ? 0 : newestFirst[limit - 1]! + limits.windowMs - now;
  const retryAfter = (counts: FailureCounts, now: number) =>
    Math.max(lockedFor(counts.pair, limits.perSubjectIp, now), lockedFor(counts.client, limits.perIp, now));
  const delayFor = (failures: number): number =>
    failures < limits.freeFailures ? 0 : Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** (failures - limits.freeFailures));

  return {
    retryAfterMs: async (subject, ip) => {
      const now = clock.now();
      return retryAfter(await store.counts(subjectOf(subject), throttleKey(ip), now - limits.windowMs), now);
    },
    delayMs: async (subject) => delayFor(await store.subjectFailures(subjectOf(subject), clock.now() - limits.windowMs)),
    attempt: async (subject, ip) => {
      const now = clock.now();
      const { before, recorded } = await store.countIfOpen(subjectOf(subject), throttleKey(ip), now, now - limits.windowMs);
      // Every failure read is inside the window, so below both limits is exactly "no wait".
      if (!recorded) return { refused: true, retryAfterMs: retryAfter(before, now) };
      // The delay is fixed by the failures recorded before this attempt, and waited once it is counted.
      const delayedMs = delayFor(before.subject);
      if (delayedMs > 0) await clock.sleep(delayedMs);
      return { refused: false, delayedMs };
    },
    recordSuccess: (subject, ip) => store.forget(subjectOf(subject), ip === undefined ? undefined : throttleKey(ip)),
  };
};

interface Failure {
  readonly at: number;
  /** The (subject, address) pair it came from, so a success can take back exactly its own. */
  readonly pair: string;
}

/** Prune every key after this many recorded failures, so subjects tried once do not pile up. */
const SWEEP_EVERY = 1_000;

/**
 * The failures in this process's memory: for a process that is the only one (the embedded
 * database). Each step runs without an await, so a check and its count are one step here.
 */
export const memoryFailures = (limits: ThrottleLimits): FailureStore => {
  const failures = new Map<string, Failure[]>();
  let recordedSinceSweep = 0;

  // The newline cannot occur in an e-mail, an order id or an address.
  const pairOf = (subject: string, client: string) => `${subject}\n${client}`;
  const pairKey = (pair: string) => `pair:${pair}`;
  const subjectKey = (subject: string) => `subject:${subject}`;
  const clientKey = (client: string) => `ip:${client}`;

  const recent = (key: string, since: number): Failure[] => {
    const kept = (failures.get(key) ?? []).filter((f) => f.at > since);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  };
  const newestFirst = (list: readonly Failure[]) => list.map((f) => f.at).reverse();
  const countsOf = (subject: string, client: string, since: number): FailureCounts => ({
    pair: newestFirst(recent(pairKey(pairOf(subject, client)), since)),
    client: newestFirst(recent(clientKey(client), since)),
    subject: recent(subjectKey(subject), since).length,
  });

  return {
    counts: async (subject, client, since) => countsOf(subject, client, since),
    subjectFailures: async (subject, since) => recent(subjectKey(subject), since).length,
    countIfOpen: async (subject, client, now, since) => {
      const before = countsOf(subject, client, since);
      if (before.pair.length >= limits.perSubjectIp || before.client.length >= limits.perIp) return { before, recorded: false };
      const pair = pairOf(subject, client);
      for (const key of [pairKey(pair), subjectKey(subject), clientKey(client)]) failures.set(key, [...(failures.get(key) ?? []), { at: now, pair }]);
      if (++recordedSinceSweep >= SWEEP_EVERY) {
        recordedSinceSweep = 0;
        for (const key of [...failures.keys()]) recent(key, since);
      }
      return { before, recorded: true };
    },
    forget: async (subject, client) => {
      const forgotten = new Set(client === undefined ? (failures.get(subjectKey(subject)) ?? []).map((f) => f.pair) : [pairOf(subject, client)]);
      const clients = new Set([...forgotten].map((pair) => pair.slice(pair.indexOf("\n") + 1)));
      for (const pair of forgotten) failures.delete(pairKey(pair));
      for (const key of [subjectKey(subject), ...[...clients].map(clientKey)]) {
        const kept = (failures.get(key) ?? []).filter((f) => !forgotten.has(f.pair));
        if (kept.length === 0) failures.delete(key);
        else failures.set(key, kept);
      }
    },
  };
};
