/*
 * Throttling of guesses: failed attempts are counted per subject (the e-mail of a sign-in, the
 * order id of a public lookup: guessing one secret) and per IP address (trying many subjects). Counts live in this process; with several API processes
 * each keeps its own, which multiplies the allowance by the process count but never blocks a
 * legitimate user for longer.
 */

export interface ThrottleLimits {
  readonly perSubject: number;
  readonly perIp: number;
  readonly windowMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = { perSubject: 5, perIp: 30, windowMs: 15 * 60_000 };

export interface Throttle {
  /** Milliseconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfterMs(subject: string, ip: string, now?: number): number;
  recordFailure(subject: string, ip: string, now?: number): void;
  /** A success forgets that subject's failures (not the IP's). */
  recordSuccess(subject: string): void;
}

export const createThrottle = (limits: ThrottleLimits = DEFAULT_LIMITS): Throttle => {
  const failures = new Map<string, number[]>();

  const recent = (key: string, now: number): number[] => {
    const kept = (failures.get(key) ?? []).filter((at) => now - at < limits.windowMs);
    if (kept.length === 0) failures.delete(key);
    else failures.set(key, kept);
    return kept;
  };

  const wait = (key: string, limit: number, now: number): number => {
    const times = recent(key, now);
    return times.length < limit ? 0 : times[times.length - limit]! + limits.windowMs - now;
  };

  return {
    retryAfterMs: (subject, ip, now = Date.now()) =>
      Math.max(wait(`subject:${subject.toLowerCase()}`, limits.perSubject, now), wait(`ip:${ip}`, limits.perIp, now)),
    recordFailure: (subject, ip, now = Date.now()) => {
      for (const key of [`subject:${subject.toLowerCase()}`, `ip:${ip}`]) failures.set(key, [...recent(key, now), now]);
    },
    recordSuccess: (subject) => {
      failures.delete(`subject:${subject.toLowerCase()}`);
    },
  };
};
