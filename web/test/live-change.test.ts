import { describe, expect, it } from "vitest";
import { liveChangeText, parseLiveChange } from "@etd/contract";
import { reconnectDelayMs } from "../src/lib/reconnect-delay.ts";
import { PROJECTIONS, queryKeys } from "../src/lib/query-keys.ts";

describe("live updates (CARD-3)", () => {
  it("reads which read model moved from a change event", () => {
    expect(parseLiveChange('{"projection":"queue","position":"12.3"}')).toEqual({ projection: "queue", position: "12.3" });
    expect(parseLiveChange('{"projection":"order_details","position":"5.0"}')?.projection).toBe("order_details");
  });

  it("reads a change as the projector writes it, a promotion included (one message, declared in the contract)", () => {
    expect(parseLiveChange(liveChangeText("queue", "7.1"))).toEqual({ projection: "queue", position: "7.1" });
    expect(parseLiveChange(liveChangeText("staff", "9.0", true))).toEqual({ projection: "staff", position: "9.0", promoted: true });
  });

  it("ignores read models this app does not know, and anything that is not JSON", () => {
    expect(parseLiveChange('{"projection":"something_new","position":"1.0"}')).toBeUndefined();
    expect(parseLiveChange("not json")).toBeUndefined();
    expect(parseLiveChange("null")).toBeUndefined();
  });

  it("starts every query-key family with the projection name it reads, so a change invalidates exactly it", () => {
    for (const projection of PROJECTIONS) expect(queryKeys[projection]).toEqual([projection]);
  });

  it("waits longer after each refused reconnection, up to 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(reconnectDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});
