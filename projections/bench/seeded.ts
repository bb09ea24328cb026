/*
 * The workload's own deterministic random source (sfc32, seeded through splitmix32): the same
 * seed gives the same log on every machine. A longer period than the demo generator's mulberry32
 * (a million-event log draws tens of millions of numbers); the draws are the write side's.
 */

import { randomFrom, type SeededRandom } from "@etd/demo";

export interface Seeded extends SeededRandom {
  /** `n` lowercase hex digits. */
  readonly hex: (n: number) => string;
  /** A version-4-shaped UUID drawn from this source, so event ids repeat with the seed. */
  readonly uuid: () => string;
}

const splitmix32 = (seed: number) => {
  let state = seed >>> 0;
  return (): number => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
};

/** Mixes several numbers into one 32-bit seed, so derived sources (per chunk, per stream) differ. */
export const mixSeed = (...parts: readonly number[]): number => {
  let h = 0x811c9dc5;
  for (const part of parts) h = splitmix32((h ^ (Math.trunc(part) >>> 0)) >>> 0)();
  return h;
};

export const seeded = (seed: number): Seeded => {
  if (!Number.isFinite(seed)) throw new RangeError(`A seed must be a finite number, got ${String(seed)}`);
  const init = splitmix32(Math.trunc(seed));
  let a = init();
  let b = init();
  let c = init();
  let counter = init();

  const word = (): number => {
    const t = (((a + b) >>> 0) + counter) >>> 0;
    counter = (counter + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  // The first outputs of a fresh sfc32 are poorly mixed.
  for (let i = 0; i < 12; i++) word();

  const hex = (n: number): string => {
    let out = "";
    while (out.length < n) out += word().toString(16).padStart(8, "0");
    return out.slice(0, n);
  };
  const uuid = (): string => {
    const h = hex(32);
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };

  return { ...randomFrom(() => word() / 4_294_967_296), hex, uuid };
};
