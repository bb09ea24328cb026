/**
 * A small deterministic random source for demo data: the same seed gives the same sequence on
 * every machine and Node version, which Math.random cannot promise. Not for anything secret.
 *
 * The generator is mulberry32: one 32-bit state word advanced by a Weyl constant and mixed with
 * two multiply-xorshift rounds. Plenty for picking names and dates; tiny and dependency-free.
 */
export interface SeededRandom {
  /** A float in [0, 1). */
  readonly next: () => number;
  /** A whole number from `min` to `max`, both included. */
  readonly int: (min: number, max: number) => number;
  /** True with probability `p`. */
  readonly chance: (p: number) => boolean;
  readonly pick: <T>(items: readonly T[]) => T;
  /** An item drawn with the given weights (any positive numbers). */
  readonly weighted: <T>(items: readonly (readonly [T, number])[]) => T;
  /** `n` distinct items in random order (all of them if there are fewer). */
  readonly sample: <T>(items: readonly T[], n: number) => T[];
  /** `n` decimal digits, leading zeros allowed. */
  readonly digits: (n: number) => string;
}

export function seededRandom(seed: number): SeededRandom {
  if (!Number.isFinite(seed)) throw new RangeError(`A seed must be a finite number, got ${String(seed)}`);
  // Any finite number works: its integer part, wrapped to 32 bits, is the starting state.
  let state = Math.trunc(seed) >>> 0;
  return randomFrom(() => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  });
}

/** The draws above on any source of floats in [0, 1), e.g. a generator of a benchmark's own. */
export function randomFrom(next: () => number): SeededRandom {
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));

  const pick = <T>(items: readonly T[]): T => {
    if (items.length === 0) throw new RangeError("Cannot pick from an empty list");
    return items[int(0, items.length - 1)] as T;
  };

  const weighted = <T>(items: readonly (readonly [T, number])[]): T => {
    const total = items.reduce((sum, [, weight]) => sum + weight, 0);
    let roll = next() * total;
    for (const [item, weight] of items) {
      roll -= weight;
      if (roll < 0) return item;
    }
    return pick(items)[0];
  };

  const sample = <T>(items: readonly T[], n: number): T[] => {
    const pool = [...items];
    // A partial Fisher-Yates shuffle: the first n places end up a uniform random sample.
    const take = Math.min(n, pool.length);
    for (let i = 0; i < take; i++) {
      const j = int(i, pool.length - 1);
      [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
    }
    return pool.slice(0, take);
  };

  const digits = (n: number): string => Array.from({ length: n }, () => String(int(0, 9))).join("");

  return { next, int, chance: (p) => next() < p, pick, weighted, sample, digits };
}
