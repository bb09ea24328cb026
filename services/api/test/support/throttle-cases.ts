import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, type Throttle, type ThrottleLimits } from "../../src/auth/throttle.ts";
import { fakeClock } from "./fake-clock.ts";

/*
 * Issue 9 item 6: sign-in throttling per (account, IP) and per IP; failures spread over many
 * addresses slow the account, capped, and never lock it. The same cases for every store of the
 * failures (in memory, in PostgreSQL: issue 28), so that where the counts live changes nothing a
 * client sees. Time is a fake clock, which the database's rows follow too: windows pass at once.
 */

const MINUTE = 60_000;
const START = Date.UTC(2025, 2, 14, 8, 0, 0);
const OWNER = "owner@demo.local";

export type MakeThrottle = (overrides: Partial<ThrottleLimits>, clock: ReturnType<typeof fakeClock>) => Promise<Throttle>;

/** A failed guess: counted (never refused, in these set-ups), its delay answered. */
const fail = async (throttle: Throttle, subject: string, ip: string): Promise<number> => {
  const attempt = await throttle.attempt(subject, ip);
  if (attempt.refused) throw new Error(`refused: ${subject} from ${ip}`);
  return attempt.delayedMs;
};

export const throttleCases = (store: string, make: MakeThrottle) =>
  describe(`issue 9 item 6: the sign-in throttle (failures ${store})`, () => {
    it("the defaults: 5 failures per (account, IP), 30 per IP, over 15 minutes; the delay starts at the 5th failure and stops at 3 s", () => {
      expect(DEFAULT_LIMITS).toEqual({ perSubjectIp: 5, perIp: 30, windowMs: 15 * MINUTE, freeFailures: 5, baseDelayMs: 250, maxDelayMs: 3_000 });
    });

    it("5 failures from one address lock that (account, address) until the first leaves the window; another address is not locked", async () => {
      const clock = fakeClock(START);
      const throttle = await make({}, clock);
      for (let i = 0; i < 4; i++) {
        await fail(throttle, OWNER, "203.0.113.7");
        clock.advance(MINUTE);
      }
      expect(await throttle.retryAfterMs(OWNER, "203.0.113.7")).toBe(0);
      await fail(throttle, OWNER, "203.0.113.7");
      // The first failure was 4 minutes ago: 11 minutes left of its window.
      expect(await throttle.retryAfterMs(OWNER, "203.0.113.7")).toBe(11 * MINUTE);
      // Case and spaces do not make another account.
      expect(await throttle.retryAfterMs(" Owner@Demo.Local ", "203.0.113.7")).toBe(11 * MINUTE);
      expect(await throttle.retryAfterMs(OWNER, "198.51.100.1")).toBe(0);
      expect(await throttle.retryAfterMs("other@demo.local", "203.0.113.7")).toBe(0);
      // A refused guess is answered with the wait and counts nothing: the wait does not grow.
      clock.advance(MINUTE);
      expect(await throttle.attempt(OWNER, "203.0.113.7")).toEqual({ refused: true, retryAfterMs: 10 * MINUTE });
      clock.advance(10 * MINUTE - 1);
      expect(await throttle.retryAfterMs(OWNER, "203.0.113.7")).toBe(1);
      clock.advance(1);
      expect(await throttle.retryAfterMs(OWNER, "203.0.113.7")).toBe(0);
    });

    it("failures from 20 addresses never lock the account: a fresh address may try at once, after a delay that doubles and stops at the cap", async () => {
      const clock = fakeClock(START);
      const throttle = await make({}, clock);
      const delays: number[] = [];
      for (let ip = 1; ip <= 20; ip++) {
        for (let i = 0; i < 5; i++) delays.push(await fail(throttle, OWNER, `198.51.100.${ip}`));
        expect(await throttle.retryAfterMs(OWNER, `198.51.100.${ip}`)).toBeGreaterThan(0);
      }
      expect(delays.slice(0, 9)).toEqual([0, 0, 0, 0, 0, 250, 500, 1_000, 2_000]);
      expect(new Set(delays.slice(9))).toEqual(new Set([3_000]));
      expect(await throttle.retryAfterMs(OWNER, "192.0.2.200")).toBe(0);
      expect(await throttle.delayMs(OWNER)).toBe(3_000);
      // The delay follows the window: once the failures are old, none.
      clock.advance(15 * MINUTE);
      expect(await throttle.delayMs(OWNER)).toBe(0);
    });

    it("an attempt waits its delay on the throttle's clock and answers it", async () => {
      const clock = fakeClock(START);
      const throttle = await make({ freeFailures: 1, baseDelayMs: 100, maxDelayMs: 150 }, clock);
      expect(await fail(throttle, OWNER, "198.51.100.1")).toBe(0);
      expect(await fail(throttle, OWNER, "198.51.100.2")).toBe(100);
      expect(await fail(throttle, OWNER, "198.51.100.3")).toBe(150);
      expect(clock.slept).toEqual([100, 150]);
    });

    it("30 failures from one address over many accounts lock that address for every account, not other addresses", async () => {
      const clock = fakeClock(START);
      const throttle = await make({}, clock);
      for (let i = 0; i < 30; i++) await fail(throttle, `guess-${i}@demo.local`, "203.0.113.9");
      expect(await throttle.retryAfterMs(OWNER, "203.0.113.9")).toBe(15 * MINUTE);
      expect(await throttle.retryAfterMs(OWNER, "203.0.113.10")).toBe(0);
      // No single account got more than one failure: none is slowed down.
      expect(await throttle.delayMs("guess-0@demo.local")).toBe(0);
    });

    it("a success forgets that address's failures on that account, and nothing else", async () => {
      const clock = fakeClock(START);
      const throttle = await make({ freeFailures: 1, maxDelayMs: 60_000 }, clock);
      for (let i = 0; i < 4; i++) await fail(throttle, OWNER, "203.0.113.7");
      for (let i = 0; i < 5; i++) await fail(throttle, OWNER, "198.51.100.1");
      for (let i = 0; i < 26; i++) await fail(throttle, `guess-${i}@demo.local`, "203.0.113.7");
      expect(await throttle.retryAfterMs("anyone@demo.local", "203.0.113.7")).toBeGreaterThan(0);
      await throttle.recordSuccess(OWNER, "203.0.113.7");
      await fail(throttle, OWNER, "203.0.113.7");
      // The pair starts again at one failure; the address's count lost the owner's four (26 + 1 < 30).
      expect(await throttle.retryAfterMs(OWNER, "203.0.113.7")).toBe(0);
      expect(await throttle.retryAfterMs("anyone@demo.local", "203.0.113.7")).toBe(0);
      // The other address's failures still count: locked there, and the account still slowed (5 + 1 failures).
      expect(await throttle.retryAfterMs(OWNER, "198.51.100.1")).toBeGreaterThan(0);
      expect(await throttle.delayMs(OWNER)).toBe(DEFAULT_LIMITS.baseDelayMs * 2 ** 5);
      for (let i = 26; i < 29; i++) await fail(throttle, `guess-${i}@demo.local`, "203.0.113.7");
      expect(await throttle.retryAfterMs("anyone@demo.local", "203.0.113.7")).toBeGreaterThan(0);
    });

    it("a success without an address forgets the subject's failures from every address", async () => {
      const clock = fakeClock(START);
      const throttle = await make({ perSubjectIp: 2, perIp: 3 }, clock);
      for (const ip of ["198.51.100.1", "198.51.100.1", "198.51.100.2", "198.51.100.2"]) await fail(throttle, "100234", ip);
      expect(await throttle.retryAfterMs("100234", "198.51.100.1")).toBeGreaterThan(0);
      await throttle.recordSuccess("100234");
      expect(await throttle.retryAfterMs("100234", "198.51.100.1")).toBe(0);
      expect(await throttle.retryAfterMs("100234", "198.51.100.2")).toBe(0);
      expect(await throttle.delayMs("100234")).toBe(0);
      // Another subject's failures from 198.51.100.2 still count towards that address.
      for (const subject of ["100235", "100236", "100237"]) await fail(throttle, subject, "198.51.100.2");
      expect(await throttle.retryAfterMs("100238", "198.51.100.2")).toBeGreaterThan(0);
    });

    it("guesses sent together from one address: exactly the limit are counted, the rest refused", async () => {
      const clock = fakeClock(START);
      const throttle = await make({}, clock);
      const attempts = await Promise.all(Array.from({ length: 12 }, () => throttle.attempt(OWNER, "203.0.113.20")));
      expect(attempts.filter((a) => !a.refused)).toHaveLength(5);
      expect(attempts.filter((a) => a.refused)).toHaveLength(7);
    });
  });
