import { describe, expect, it } from "vitest";
import { createThrottle, DEFAULT_LIMITS } from "../src/auth/throttle.ts";
import { fakeClock } from "./support/fake-clock.ts";

/*
 * Issue 9 item 6: sign-in throttling per (account, IP) and per IP; failures spread over many
 * addresses slow the account, capped, and never lock it. Time is a fake clock: windows pass at once.
 */

const MINUTE = 60_000;
const START = Date.UTC(2025, 2, 14, 8, 0, 0);


const OWNER = "owner@demo.local";

describe("issue 9 item 6: the sign-in throttle", () => {
  it("the defaults: 5 failures per (account, IP), 30 per IP, over 15 minutes; the delay starts at the 5th failure and stops at 3 s", () => {
    expect(DEFAULT_LIMITS).toEqual({ perSubjectIp: 5, perIp: 30, windowMs: 15 * MINUTE, freeFailures: 5, baseDelayMs: 250, maxDelayMs: 3_000 });
  });

  it("5 failures from one address lock that (account, address) until the first leaves the window; another address is not locked", () => {
    const clock = fakeClock(START);
    const throttle = createThrottle({}, clock);
    for (let i = 0; i < 4; i++) {
      throttle.recordFailure(OWNER, "203.0.113.7");
      clock.advance(MINUTE);
    }
    expect(throttle.retryAfterMs(OWNER, "203.0.113.7")).toBe(0);
    throttle.recordFailure(OWNER, "203.0.113.7");
    // The first failure was 4 minutes ago: 11 minutes left of its window.
    expect(throttle.retryAfterMs(OWNER, "203.0.113.7")).toBe(11 * MINUTE);
    // Case and spaces do not make another account.
    expect(throttle.retryAfterMs(" Owner@Demo.Local ", "203.0.113.7")).toBe(11 * MINUTE);
    expect(throttle.retryAfterMs(OWNER, "198.51.100.1")).toBe(0);
    expect(throttle.retryAfterMs("other@demo.local", "203.0.113.7")).toBe(0);
    clock.advance(11 * MINUTE - 1);
    expect(throttle.retryAfterMs(OWNER, "203.0.113.7")).toBe(1);
    clock.advance(1);
    expect(throttle.retryAfterMs(OWNER, "203.0.113.7")).toBe(0);
  });

  it("failures from 20 addresses never lock the account: a fresh address may try at once, after a delay that doubles and stops at the cap", () => {
    const clock = fakeClock(START);
    const throttle = createThrottle({}, clock);
    const delays: number[] = [];
    for (let ip = 1; ip <= 20; ip++) {
      for (let i = 0; i < 5; i++) {
        delays.push(throttle.delayMs(OWNER));
        throttle.recordFailure(OWNER, `198.51.100.${ip}`);
      }
      expect(throttle.retryAfterMs(OWNER, `198.51.100.${ip}`)).toBeGreaterThan(0);
    }
    expect(delays.slice(0, 9)).toEqual([0, 0, 0, 0, 0, 250, 500, 1_000, 2_000]);
    expect(new Set(delays.slice(9))).toEqual(new Set([3_000]));
    expect(throttle.retryAfterMs(OWNER, "192.0.2.200")).toBe(0);
    expect(throttle.delayMs(OWNER)).toBe(3_000);
    // The delay follows the window: once the failures are old, none.
    clock.advance(15 * MINUTE);
    expect(throttle.delayMs(OWNER)).toBe(0);
  });

  it("slowDown waits the delay on the throttle's clock and answers it", async () => {
    const clock = fakeClock(START);
    const throttle = createThrottle({ freeFailures: 1, baseDelayMs: 100, maxDelayMs: 150 }, clock);
    expect(await throttle.slowDown(OWNER)).toBe(0);
    throttle.recordFailure(OWNER, "198.51.100.1");
    expect(await throttle.slowDown(OWNER)).toBe(100);
    throttle.recordFailure(OWNER, "198.51.100.2");
    expect(await throttle.slowDown(OWNER)).toBe(150);
    expect(clock.slept).toEqual([100, 150]);
  });

  it("30 failures from one address over many accounts lock that address for every account, not other addresses", () => {
    const clock = fakeClock(START);
    const throttle = createThrottle({}, clock);
    for (let i = 0; i < 30; i++) throttle.recordFailure(`guess-${i}@demo.local`, "203.0.113.9");
    expect(throttle.retryAfterMs(OWNER, "203.0.113.9")).toBe(15 * MINUTE);
    expect(throttle.retryAfterMs(OWNER, "203.0.113.10")).toBe(0);
    // No single account got more than one failure: none is slowed down.
    expect(throttle.delayMs("guess-0@demo.local")).toBe(0);
  });

  it("a success forgets that address's failures on that account, and nothing else", () => {
    const clock = fakeClock(START);
    const throttle = createThrottle({ freeFailures: 1, maxDelayMs: 60_000 }, clock);
    for (let i = 0; i < 4; i++) throttle.recordFailure(OWNER, "203.0.113.7");
    for (let i = 0; i < 5; i++) throttle.recordFailure(OWNER, "198.51.100.1");
    for (let i = 0; i < 28; i++) throttle.recordFailure(`guess-${i}@demo.local`, "203.0.113.7");
    expect(throttle.retryAfterMs("anyone@demo.local", "203.0.113.7")).toBeGreaterThan(0);
    throttle.recordSuccess(OWNER, "203.0.113.7");
    throttle.recordFailure(OWNER, "203.0.113.7");
    // The pair starts again at one failure; the address's count lost the owner's four (28 + 1 < 30).
    expect(throttle.retryAfterMs(OWNER, "203.0.113.7")).toBe(0);
    expect(throttle.retryAfterMs("anyone@demo.local", "203.0.113.7")).toBe(0);
    // The other address's failures still count: locked there, and the account still slowed (5 + 1 failures).
    expect(throttle.retryAfterMs(OWNER, "198.51.100.1")).toBeGreaterThan(0);
    expect(throttle.delayMs(OWNER)).toBe(DEFAULT_LIMITS.baseDelayMs * 2 ** 5);
    throttle.recordFailure("guess-28@demo.local", "203.0.113.7");
    expect(throttle.retryAfterMs("anyone@demo.local", "203.0.113.7")).toBeGreaterThan(0);
  });

  it("a success without an address (the public order lookup) forgets the subject's failures from every address", () => {
    const clock = fakeClock(START);
    const throttle = createThrottle({ perSubjectIp: 2, perIp: 3 }, clock);
    for (const ip of ["198.51.100.1", "198.51.100.1", "198.51.100.2", "198.51.100.2"]) throttle.recordFailure("100234", ip);
    throttle.recordFailure("100235", "198.51.100.2");
    expect(throttle.retryAfterMs("100234", "198.51.100.1")).toBeGreaterThan(0);
    throttle.recordSuccess("100234");
    expect(throttle.retryAfterMs("100234", "198.51.100.1")).toBe(0);
    expect(throttle.retryAfterMs("100234", "198.51.100.2")).toBe(0);
    expect(throttle.delayMs("100234")).toBe(0);
    // The other subject's failure from 198.51.100.2 still counts towards that address.
    throttle.recordFailure("100236", "198.51.100.2");
    throttle.recordFailure("100237", "198.51.100.2");
    expect(throttle.retryAfterMs("100238", "198.51.100.2")).toBeGreaterThan(0);
  });
});
