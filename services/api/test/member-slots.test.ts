import { describe, expect, it } from "vitest";
import { memberSlots } from "../src/http/member-slots.ts";

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
