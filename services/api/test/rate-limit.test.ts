import { describe, expect, it } from "vitest";
import { createRateLimiter } from "../src/http/rate-limit.ts";

describe("issue 9 item 4: the public rate limiter (a fixed window per key)", () => {
  it("lets `limit` requests through per window, says how long to wait, and opens a new window after it", () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: 1_000 });
    expect([0, 10, 20].map((at) => limiter.take("ip", at))).toEqual([0, 0, 0]);
    expect(limiter.take("ip", 400)).toBe(600);
    expect(limiter.take("other", 400)).toBe(0);
    expect(limiter.take("ip", 999)).toBe(1);
    expect(limiter.take("ip", 1_000)).toBe(0);
  });

  it("keeps at most `maxKeys` windows: ended ones go first, then the oldest", () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 1_000 }, 2);
    limiter.take("a", 0);
    limiter.take("b", 500);
    // "a"'s window has ended: it makes room, "b" keeps its count.
    expect(limiter.take("c", 1_200)).toBe(0);
    expect(limiter.take("b", 1_300)).toBe(200);
    // Both open: the oldest ("b") is forgotten, so it may go again.
    expect(limiter.take("d", 1_400)).toBe(0);
    expect(limiter.take("c", 1_450)).toBeGreaterThan(0);
    expect(limiter.take("b", 1_460)).toBe(0);
  });
});
