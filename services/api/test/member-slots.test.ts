import { once } from "node:events";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { memberSlots, streamInSlot } from "../src/http/member-slots.ts";

/*
 * Issue 28's attacker review: one member's burst of defence packs or audit exports is refused past
 * a few at once (429), as CSV exports already were (issue 16 D). Slots are counted per member and
 * freed exactly once, however the request ends.
 */
describe("issue 28 review: a member's heavy requests at once", () => {
  it("two at once per member; a third is refused until one is freed; other members are not counted against", () => {
    const slots = memberSlots(2);
    const first = slots.take("kim");
    const second = slots.take("kim");
    expect(first).toBeTypeOf("function");
    expect(second).toBeTypeOf("function");
    expect(slots.take("kim")).toBeUndefined();
    expect(slots.take("lee")).toBeTypeOf("function");

    first!();
    const third = slots.take("kim");
    expect(third).toBeTypeOf("function");
    expect(slots.take("kim")).toBeUndefined();
  });

  it("a slot freed twice (a stream's close after its error) frees one place only", () => {
    const slots = memberSlots(2);
    const first = slots.take("kim")!;
    slots.take("kim");
    first();
    first();
    expect(slots.take("kim")).toBeTypeOf("function");
    expect(slots.take("kim")).toBeUndefined();
  });
});

describe("issue 28 review: a stream's slot lasts as long as its source's work", () => {
  /** A source whose second item waits until the test lets it go, saying when its work is over. */
  const gatedSource = () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const state = { over: false };
    const source = (async function* () {
      try {
        yield "first";
        await gate;
        yield "second";
      } finally {
        state.over = true;
      }
    })();
    return { source, release, state };
  };
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const closed = (stream: Readable) => (stream.closed ? Promise.resolve() : once(stream, "close"));

  it("a client that goes away mid-read frees the slot only once the read it interrupted is over", async () => {
    const slots = memberSlots(1);
    const { source, release, state } = gatedSource();
    const stream = streamInSlot(source, slots.take("kim")!);
    const items = stream[Symbol.asyncIterator]();
    expect((await items.next()).value).toBe("first");
    // The stream reads ahead and waits at the gate; the client goes away meanwhile.
    await turn();
    stream.destroy();
    await turn();
    expect(state.over).toBe(false);
    expect(slots.take("kim")).toBeUndefined();
    release();
    await closed(stream);
    expect(state.over).toBe(true);
    expect(slots.take("kim")).toBeTypeOf("function");
  });

  it("a stream read to its end frees the slot; one closed before it started frees it too", async () => {
    const slots = memberSlots(1);
    const whole = streamInSlot(
      (async function* () {
        yield "a";
        yield "b";
      })(),
      slots.take("kim")!,
    );
    const read: unknown[] = [];
    for await (const item of whole) read.push(item);
    expect(read).toEqual(["a", "b"]);
    await closed(whole);
    const again = slots.take("kim");
    expect(again).toBeTypeOf("function");

    const unread = streamInSlot(
      (async function* () {
        yield "never read";
      })(),
      again!,
    );
    unread.destroy();
    await closed(unread);
    expect(slots.take("kim")).toBeTypeOf("function");
  });
});
