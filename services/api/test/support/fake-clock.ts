import type { Clock } from "../../src/auth/throttle.ts";

/** A clock for the throttle: `advance` moves time, `sleep` records the delay instead of waiting. */
export const fakeClock = (start = Date.now()) => {
  let now = start;
  const slept: number[] = [];
  const clock: Clock & { advance(ms: number): void; slept: number[] } = {
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
    },
    advance: (ms) => {
      now += ms;
    },
    slept,
  };
  return clock;
};
