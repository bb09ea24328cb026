import { describe, expect, it } from "vitest";
import { stateLabel } from "../src/components/service-level-panel.tsx";

/*
 * Issue 27's service-level clock on the order page, after the UX review: an order whose document
 * came after its time showed "State: Met" beside the red "Met late" line, read at a glance as on time.
 */
describe("issue 27, UX review: the clock's state as the order page names it", () => {
  it("a clock met after its time says Met late; met in time, Met; the others their state", () => {
    expect(stateLabel({ state: "met", leftMs: -23_880_000 })).toBe("Met late");
    expect(stateLabel({ state: "met", leftMs: 0 })).toBe("Met");
    expect(stateLabel({ state: "met", leftMs: 3_600_000 })).toBe("Met");
    expect(stateLabel({ state: "running", leftMs: -1 })).toBe("Running");
    expect(stateLabel({ state: "waiting", leftMs: 10 })).toBe("Waiting for the processing date");
  });
});
