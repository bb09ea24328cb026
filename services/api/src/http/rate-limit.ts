/*
 * Request rate limits for the public side (issue 9 item 4): every request a visitor makes counts,
 * successful or not, so no public endpoint can be walked at full speed, whatever it answers.
 * (Sign-in and failed order lookups have their own, longer-lived counts of failures: throttle.ts.)
 *
 * A fixed window per key: the first request opens a window of `windowMs`, `limit` requests fit in
 * it, the next ones wait for it to end. At a window's edge a burst of up to twice the limit can
 * pass; that is the price of one counter per key, and still far from enumeration speed. Counts live
 * in this process (unlike throttle.ts's, which PostgreSQL shares, ADR 0040): several API processes
 * each allow as much; a window is a minute, and sharing it would put a write on every public request.
 */

export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * Per endpoint and address. A visit is one track, then a few history reads, downloads and file
 * fetches; many travellers can share an address (a hotel, a carrier's NAT), hence the margin.
 */
export const PUBLIC_RATE_LIMIT: RateLimit = { limit: 30, windowMs: 60_000 };

export interface RateLimiter {
  /** Counts a request under `key`: 0 when it may go ahead, else milliseconds until it may. */
  take(key: string, now?: number): number;
}

/** Beyond this many keys, windows that have ended are dropped (and, if none has, the oldest). */
const MAX_KEYS = 100_000;

export const createRateLimiter = ({ limit, windowMs }: RateLimit, maxKeys = MAX_KEYS): RateLimiter => {
  // Insertion order is window-start order: a new window is deleted and re-inserted.
  const windows = new Map<string, { start: number; count: number }>();

  const makeRoom = (now: number) => {
    for (const [key, window] of windows) {
      if (windows.size < maxKeys) return;
      if (now - window.start >= windowMs) windows.delete(key);
      else break;
    }
    // Every window is still open (many addresses at once): forget the oldest rather than grow.
    while (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
  };

  return {
    take: (key, now = Date.now()) => {
      const window = windows.get(key);
      if (window === undefined || now - window.start >= windowMs) {
        windows.delete(key);
        if (windows.size >= maxKeys) makeRoom(now);
        windows.set(key, { start: now, count: 1 });
        return 0;
      }
      if (window.count >= limit) return window.start + windowMs - now;
      window.count++;
      return 0;
    },
  };
};

/** The answer's wording for a wait, in whole seconds. */
export const tooManyRequests = (waitMs: number): string =>
  `Too many requests. Please try again in ${Math.max(1, Math.ceil(waitMs / 1000))} seconds.`;
