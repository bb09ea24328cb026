import { afterEach, describe, expect, it, vi } from "vitest";
import { liveChangeText, MOST_CHANGED, parseLiveChange } from "@etd/contract";
import { mayShowChange, refetchScheduler } from "../src/lib/live-refetch.ts";
import { reconnectDelayMs } from "../src/lib/reconnect-delay.ts";
import { PROJECTIONS, queryKeys } from "../src/lib/query-keys.ts";

describe("live updates (CARD-3)", () => {
  it("reads which read model moved from a change event", () => {
    expect(parseLiveChange('{"projection":"queue","position":"12.3"}')).toEqual({ projection: "queue", position: "12.3" });
    expect(parseLiveChange('{"projection":"order_details","position":"5.0"}')?.projection).toBe("order_details");
  });

  it("reads a change as the projector writes it, a promotion included (one message, declared in the contract)", () => {
    expect(parseLiveChange(liveChangeText("queue", "7.1"))).toEqual({ projection: "queue", position: "7.1" });
    expect(parseLiveChange(liveChangeText("staff", "9.0", { promoted: true }))).toEqual({ projection: "staff", position: "9.0", promoted: true });
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

describe("live refetch: only what a change may have changed, at most once an interval (issue 28, P17)", () => {
  // The scheduler's tests run on fake timers; whichever way one ends, the next starts on real ones.
  afterEach(() => {
    vi.useRealTimers();
  });

  const list = (folder: string) => ["queue", "list", folder, { page: 1, size: 25 }];
  const counts = ["queue", "GET", "/api/admin/get-orders-count", { query: {} }];
  const orderPage = (orderId: string) => ["order_details", "GET", "/api/admin/get-order-details/:orderId", { params: { orderId } }];

  it("reads what changed from a change event, and says nothing changed when the list is empty", () => {
    expect(parseLiveChange(liveChangeText("queue", "7.1", { changed: ["newOrder", "allOrder"] }))).toEqual({ projection: "queue", position: "7.1", changed: ["newOrder", "allOrder"] });
    expect(parseLiveChange(liveChangeText("queue", "7.2", { changed: [] }))?.changed).toEqual([]);
  });

  it("announces too long a list as 'anything may have changed', inside a notification's size", () => {
    const many = Array.from({ length: MOST_CHANGED + 1 }, (_, i) => `order-${i}`);
    const text = liveChangeText("order_details", "8.0", { changed: many });
    expect(parseLiveChange(text)?.changed).toBeUndefined();
    expect(new TextEncoder().encode(liveChangeText("order_details", "8.0", { changed: many.slice(0, MOST_CHANGED) })).length).toBeLessThan(8000);
  });

  it("refetches a folder's list only when that folder's rows moved; the counts when any did; nothing for a remark", () => {
    const moved = { projection: "queue", position: "1.0", changed: ["pendingOrder", "awaitingOrder", "allOrder", "myOrder:s1"] } as const;
    expect(mayShowChange(list("newOrder"), moved, "s1")).toBe(false);
    expect(mayShowChange(list("pendingOrder"), moved, "s1")).toBe(true);
    expect(mayShowChange(list("myOrder"), moved, "s1")).toBe(true);
    expect(mayShowChange(list("myOrder"), moved, "s2")).toBe(false);
    expect(mayShowChange(counts, moved, "s2")).toBe(true);
    const remark = { projection: "queue", position: "1.1", changed: [] } as const;
    expect([list("newOrder"), list("pendingOrder"), counts].some((key) => mayShowChange(key, remark, "s1"))).toBe(false);
    // A read model that cannot tell what changed: everything of it refetches, nothing of the others.
    const anything = { projection: "queue", position: "1.2" } as const;
    expect(mayShowChange(list("newOrder"), anything, "s1")).toBe(true);
    expect(mayShowChange(orderPage("A1"), anything, "s1")).toBe(false);
  });

  it("refetches an order page only when its order changed", () => {
    const change = { projection: "order_details", position: "2.0", changed: ["A1"] } as const;
    expect(mayShowChange(orderPage("A1"), change, "s1")).toBe(true);
    expect(mayShowChange(orderPage("B2"), change, "s1")).toBe(false);
    expect(mayShowChange(["order_details", "audit", "A1"], change, "s1")).toBe(true);
  });

  it("refetches at once after a quiet interval, then once per interval with every change that came meanwhile", () => {
    vi.useFakeTimers();
    const refetched: string[][] = [];
    const keys = [list("newOrder"), list("pendingOrder"), list("awaitingOrder")];
    const scheduler = refetchScheduler((isStale) => refetched.push(keys.filter(isStale).map((key) => key[2] as string)), "s1", { intervalMs: 1000, spreadMs: 0 });
    scheduler.add({ projection: "queue", position: "1", changed: ["newOrder"] });
    expect(refetched).toEqual([["newOrder"]]);
    for (let i = 0; i < 10; i++) scheduler.add({ projection: "queue", position: `2.${i}`, changed: [i % 2 ? "pendingOrder" : "allOrder"] });
    scheduler.add({ projection: "queue", position: "3", changed: [] });
    expect(refetched).toHaveLength(1);
    vi.advanceTimersByTime(1000);
    expect(refetched).toEqual([["newOrder"], ["pendingOrder"]]);
    // A change that says nothing changed is not even waited for.
    scheduler.add({ projection: "queue", position: "4", changed: [] });
    vi.advanceTimersByTime(5000);
    expect(refetched).toHaveLength(2);
    scheduler.stop();
  });

  it("P17 unchanged_refetch: a burst of more changes than it matches one by one, all but the queue's naming orders, refetches no queue query", () => {
    vi.useFakeTimers();
    const refetched: string[][] = [];
    const keys: { name: string; key: readonly unknown[] }[] = [
      { name: "New list", key: list("newOrder") },
      { name: "counts", key: ["queue", "GET", "/admin/get-all-folder-count", { query: {} }] },
    ];
    const scheduler = refetchScheduler((isStale) => refetched.push(keys.filter(({ key }) => isStale(key)).map(({ name }) => name)), "s1", { intervalMs: 1000, spreadMs: 0 });
    // 60 remarks, each announced by every read model: the queue's say nothing changed.
    for (let i = 0; i < 60; i++) {
      scheduler.add({ projection: "queue", position: `${i}.1`, changed: [] });
      for (const projection of ["order_details", "dashboard", "reports", "staff", "gateways"] as const) scheduler.add({ projection, position: `${i}.1`, changed: [`10000${i}`] });
    }
    vi.advanceTimersByTime(5000);
    expect(refetched.flat()).toEqual([]);
    scheduler.stop();
  });

  it("spreads the first refetch after a quiet interval over a random part of the spread, so pages that hear a change together do not all ask at once", () => {
    vi.useFakeTimers();
    const at: number[] = [];
    const started = Date.now();
    const scheduler = refetchScheduler(() => at.push(Date.now() - started), "s1", { intervalMs: 1000, spreadMs: 500, random: () => 0.5 });
    scheduler.add({ projection: "queue", position: "1", changed: ["newOrder"] });
    vi.advanceTimersByTime(249);
    expect(at).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(at).toEqual([250]);
    // Within the interval: at its end, as before.
    scheduler.add({ projection: "queue", position: "2", changed: ["newOrder"] });
    vi.advanceTimersByTime(1000);
    expect(at).toEqual([250, 1250]);
    scheduler.stop();
  });
});
