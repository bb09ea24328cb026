/*
 * Sign-in throttling: failed attempts are counted per e-mail (guessing one account's password) and
 * per IP address (trying many accounts). Counts live in this process; with several API processes
 * each keeps its own, which multiplies the allowance by the process count but never blocks a
 * legitimate user for longer.
 */

export interface ThrottleLimits {
  readonly perEmail: number;
  readonly perIp: number;
  readonly windowMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = { perEmail: 5, perIp: 30, windowMs: 15 * 60_000 };

export interface LoginThrottle {
  /** Milliseconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfterMs(email: string, ip: string, now?: number): number;
  recordFailure(email: string, ip: string, now?: number): void;
  /** A successful sign-in forgets that e-mail's failures (not the IP's). */
  recordSuccess(email: string): void;
}

export const createLoginThrottle = (limits: ThrottleLimits = DEFAULT_LIMITS): LoginThrottle => {
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
    retryAfterMs: (email, ip, now = Date.now()) =>
      Math.max(wait(`email:${email.toLowerCase()}`, limits.perEmail, now), wait(`ip:${ip}`, limits.perIp, now)),
    recordFailure: (email, ip, now = Date.now()) => {
      for (const key of [`email:${email.toLowerCase()}`, `ip:${ip}`]) failures.set(key, [...recent(key, now), now]);
    },
    recordSuccess: (email) => {
      failures.delete(`email:${email.toLowerCase()}`);
    },
  };
};
