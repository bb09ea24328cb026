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
 * Counts live in this process; with several API processes each keeps its own, which multiplies
 * the allowance by the process count but never blocks or slows a legitimate user for longer.
 * Time comes from an injectable clock, so tests need not wait out a window.
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

export interface Throttle {
  /** Milliseconds until this address may try this subject again (its own or the address's limit), or 0. */
  retryAfterMs(subject: string, ip: string): number;
  /** The added delay an attempt on this subject waits now, from its recent failures anywhere. */
  delayMs(subject: string): number;
  /** Waits `delayMs(subject)` on the throttle's clock; answers how long that was. */
  slowDown(subject: string): Promise<number>;
  recordFailure(subject: string, ip: string): void;
  /**
   * This address got the subject right: its failures on this subject are forgotten (from the
   * pair, the subject's and the address's counts). Without an address, every failure of the
   * subject is forgotten, from whichever address.
   */
  recordSuccess(subject: string, ip?: string): void;
}

interface Failure {
  readonly at: number;
  /** The (subject, IP) pair it came from, so a success can take back exactly its own. */
  readonly pair: string;
}

/** Prune every key after this many recorded failures, so subjects tried once do not pile up. */
const SWEEP_EVERY = 1_000;

export const createThrottle = (overrides: Partial<ThrottleLimits> = {}, clock: Clock = systemClock): Throttle => {
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  const failures = new Map<string, Failure[]>();
  let recordedSinceSweep = 0;

  // Case-insensitive e-mails; the newline cannot occur in an e-mail, an order id or an address.
  const subjectKey = (subject: string) => `subject:${subject.trim().toLowerCase()}`;
  const pairOf = (subject: string, ip: string) => `${subject.trim().toLowerCase()}\n${throttleKey(ip)}`;
  const pairKey = (pair: string) => `pair:${pair}`;
  const ipKey = (ip: string) => `ip:${throttleKey(ip)}`;

  const recent = (key: string, now: number): Failure[] => {
    const kept = (failures.get(key) ?? []).filter((f) => now - f.at < limits.windowMs);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  };

  /** Until the oldest of the last `limit` failures leaves the window, or 0 below the limit. */
  const lockedFor = (key: string, limit: number, now: number): number => {
    const times = recent(key, now);
    return times.length < limit ? 0 : times[times.length - limit]!.at + limits.windowMs - now;
  };

  const delayMs = (subject: string): number => {
    const count = recent(subjectKey(subject), clock.now()).length;
    if (count < limits.freeFailures) return 0;
    return Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** (count - limits.freeFailures));
  };

  return {
    retryAfterMs: (subject, ip) => {
      const now = clock.now();
      return Math.max(lockedFor(pairKey(pairOf(subject, ip)), limits.perSubjectIp, now), lockedFor(ipKey(ip), limits.perIp, now));
    },
    delayMs,
    slowDown: async (subject) => {
      const ms = delayMs(subject);
      if (ms > 0) await clock.sleep(ms);
      return ms;
    },
    recordFailure: (subject, ip) => {
      const now = clock.now();
      const pair = pairOf(subject, ip);
      for (const key of [pairKey(pair), subjectKey(subject), ipKey(ip)]) failures.set(key, [...recent(key, now), { at: now, pair }]);
      if (++recordedSinceSweep >= SWEEP_EVERY) {
        recordedSinceSweep = 0;
        for (const key of [...failures.keys()]) recent(key, now);
      }
    },
    recordSuccess: (subject, ip) => {
      const forgotten = new Set(ip === undefined ? (failures.get(subjectKey(subject)) ?? []).map((f) => f.pair) : [pairOf(subject, ip)]);
      const ips = new Set([...forgotten].map((pair) => pair.slice(pair.indexOf("\n") + 1)));
      for (const pair of forgotten) failures.delete(pairKey(pair));
      for (const key of [subjectKey(subject), ...[...ips].map(ipKey)]) {
        const kept = (failures.get(key) ?? []).filter((f) => !forgotten.has(f.pair));
        if (kept.length === 0) failures.delete(key);
        else failures.set(key, kept);
      }
    },
  };
};
