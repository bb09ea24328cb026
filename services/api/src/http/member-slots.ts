import { Readable, type ReadableOptions } from "node:stream";

/*
 * How many of one kind of heavy request (a streamed export, a rendered PDF) each member has running
 * in this process, refused past a limit: a burst by one member (a script, a page that opens links
 * on its own) is turned away before it fills the log with records, the disk with files or the
 * server with streams and browser pages. A slot is freed exactly once, however its request ends.
 */

export interface MemberSlots {
  /** A slot for the member, with the function that frees it; none when they have the limit running. */
  readonly take: (staffId: string) => (() => void) | undefined;
}

export const memberSlots = (atOnce: number): MemberSlots => {
  const running = new Map<string, number>();
  return {
    take: (staffId) => {
      const now = running.get(staffId) ?? 0;
      if (now >= atOnce) return undefined;
      running.set(staffId, now + 1);
      let freed = false;
      return () => {
        if (freed) return;
        freed = true;
        const left = (running.get(staffId) ?? 1) - 1;
        if (left > 0) running.set(staffId, left);
        else running.delete(staffId);
      };
    },
  };
};

/**
 * A stream of `source` whose slot is freed once the source's work is over: when it has ended or
 * failed, or, stopped early because the client went away, when the step it was taking (a page
 * being read) has finished too; or when the stream closes without having started it. Freeing it
 * at the stream's close alone let a client drop downloads one after another, each leaving its
 * reads running past its slot (issue 28's second attacker review).
 */
export const streamInSlot = <T>(source: AsyncIterable<T>, free: () => void, options?: ReadableOptions): Readable => {
  let started = false;
  let finished = false;
  let closed = false;
  const items = (async function* () {
    started = true;
    try {
      yield* source;
    } finally {
      finished = true;
      if (closed) free();
    }
  })();
  const stream = Readable.from(items, options);
  stream.once("close", () => {
    closed = true;
    if (finished || !started) free();
  });
  return stream;
};
