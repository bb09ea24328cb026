import * as Result from "effect/Result";
import { describe, expect, it } from "vitest";
import {
  advanceClock,
  decodeEvent,
  DEFAULT_POLICY,
  dueAt,
  encodeEvent,
  policyInForce,
  replayClock,
  startClock,
  usedMsAt,
  type AnyEvent,
  type IsoDateTime,
  type OrderEvent,
  type OrderPlaced,
  type ServiceLevelPolicySet,
} from "../src/index.ts";
import { SAMPLES, staffMetadata } from "./samples.ts";

/*
 * Issue 27: an order's service-level clock, from its history alone, with a fixed clock (every
 * moment below is written out, nothing reads the time).
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** A stored sample made into a typed event at `at`, through the codec as the store would give it. */
const event = <T extends OrderEvent["type"]>(type: T, at: string, data: Partial<Record<string, unknown>> = {}): Extract<OrderEvent, { type: T }> => {
  const sample = SAMPLES[type] as unknown as { data: Record<string, unknown> };
  const decoded = decodeEvent(encodeEvent({ ...sample, type, data: { ...sample.data, ...data }, metadata: { ...staffMetadata, occurredAt: at } } as unknown as AnyEvent));
  if (Result.isFailure(decoded)) throw decoded.failure;
  return decoded.success as Extract<OrderEvent, { type: T }>;
};

const placed = (at: string, processingMode: "standard" | "priority", processingDate = at.slice(0, 10)): OrderPlaced =>
  event("OrderPlaced", at, { processingMode, processingDate });
const moved = (at: string, from: string, to: string) => event("OrderStatusChanged", at, { from, to });
const uploaded = (at: string) => event("DocumentUploaded", at);
const policy = (version: number, at: string, standard: number, priority: number, future = standard): ServiceLevelPolicySet => {
  const decoded = decodeEvent(encodeEvent({ type: "ServiceLevelPolicySet", data: { version, allowedMinutes: { standard, priority, future } }, metadata: { ...staffMetadata, occurredAt: at } } as unknown as AnyEvent));
  if (Result.isFailure(decoded)) throw decoded.failure;
  return decoded.success as ServiceLevelPolicySet;
};
const at = (iso: string) => iso as IsoDateTime;

describe("the service-level clock of an order (issue 27)", () => {
  it("paid, paused 3 h in Awaiting Customer, back, document uploaded: it counts exactly the running time, segment by segment", () => {
    const history: OrderEvent[] = [
      placed("2026-03-02T08:00:00.000Z", "standard"),
      event("OrderAssigned", "2026-03-02T08:10:00.000Z", { from: "New" }),
      moved("2026-03-02T09:00:00.000Z", "Pending", "Awaiting"),
      moved("2026-03-02T12:00:00.000Z", "Awaiting", "Pending"),
      uploaded("2026-03-02T13:30:00.000Z"),
    ];
    const clock = replayClock(history, DEFAULT_POLICY, at("2026-03-03T00:00:00.000Z"))!;
    // 08:00 → 09:00 running, 09:00 → 12:00 paused, 12:00 → 13:30 running: 2 h 30 min.
    expect(clock.usedMs).toBe(2.5 * HOUR);
    expect(clock.fold).toMatchObject({ state: "met", policyVersion: 0, kind: "standard", allowedMs: 24 * HOUR });
    expect(clock.dueAt).toBeUndefined();
    expect(clock.segments.map(({ state, from, to, countedMs, cause }) => [state, from, to, countedMs, cause.eventType])).toEqual([
      ["running", "2026-03-02T08:00:00.000Z", "2026-03-02T09:00:00.000Z", 1 * HOUR, "OrderPlaced"],
      ["paused", "2026-03-02T09:00:00.000Z", "2026-03-02T12:00:00.000Z", 0, "OrderStatusChanged"],
      ["running", "2026-03-02T12:00:00.000Z", "2026-03-02T13:30:00.000Z", 1.5 * HOUR, "OrderStatusChanged"],
      ["met", "2026-03-02T13:30:00.000Z", undefined, 0, "DocumentUploaded"],
    ]);
    expect(clock.segments[1]!.cause.actor).toMatchObject({ kind: "staff", name: "Maria Santos" });
    // The time used is the sum of the segments, whatever moment it is read at afterwards.
    expect(clock.segments.reduce((sum, segment) => sum + segment.countedMs, 0)).toBe(clock.usedMs);
    expect(replayClock(history, DEFAULT_POLICY, at("2026-04-01T00:00:00.000Z"))!.usedMs).toBe(2.5 * HOUR);
  });

  it("as of an earlier moment it is the clock as it stood then (the audit's as-of)", () => {
    const history: OrderEvent[] = [
      placed("2026-03-02T08:00:00.000Z", "priority"),
      moved("2026-03-02T09:00:00.000Z", "Priority", "AwaitingGovt"),
      moved("2026-03-02T12:00:00.000Z", "AwaitingGovt", "Pending"),
    ];
    const during = replayClock(history, DEFAULT_POLICY, at("2026-03-02T10:30:00.000Z"))!;
    expect(during.fold.state).toBe("paused");
    expect(during.usedMs).toBe(1 * HOUR);
    expect(during.segments.at(-1)).toMatchObject({ state: "paused", from: "2026-03-02T09:00:00.000Z" });
    expect(during.segments.at(-1)!.to).toBeUndefined();
    const later = replayClock(history, DEFAULT_POLICY, at("2026-03-02T13:15:00.000Z"))!;
    expect(later.usedMs).toBe(1 * HOUR + 75 * MINUTE);
    // Priority allows 4 h by default: 1 h used before the pause, so due 3 h after it resumed.
    expect(later.dueAt).toBe("2026-03-02T15:00:00.000Z");
    expect(replayClock(history, DEFAULT_POLICY, at("2026-03-02T07:59:59.000Z"))).toBeUndefined();
  });

  it("stops while the order is refunded, charged back or deleted, and runs again if it comes back", () => {
    let fold = startClock(placed("2026-03-02T08:00:00.000Z", "standard"), DEFAULT_POLICY);
    fold = advanceClock(fold, moved("2026-03-02T10:00:00.000Z", "New", "Deleted"));
    expect(fold).toMatchObject({ state: "stopped", usedMs: 2 * HOUR });
    expect(usedMsAt(fold, at("2026-03-05T00:00:00.000Z"))).toBe(2 * HOUR);
    expect(dueAt(fold)).toBeUndefined();
    fold = advanceClock(fold, moved("2026-03-03T10:00:00.000Z", "Deleted", "Pending"));
    expect(fold.state).toBe("running");
    expect(dueAt(fold)).toBe("2026-03-04T08:00:00.000Z");
    fold = advanceClock(fold, event("OrderChargebackMarked", "2026-03-03T11:00:00.000Z", { from: "Pending" }));
    expect(fold).toMatchObject({ state: "stopped", usedMs: 3 * HOUR });
    // A document uploaded ends it for good: no later move starts it again.
    fold = advanceClock(advanceClock(fold, uploaded("2026-03-03T12:00:00.000Z")), moved("2026-03-03T13:00:00.000Z", "ChargeBack", "Pending"));
    expect(fold).toMatchObject({ state: "met", usedMs: 3 * HOUR });
  });

  it("a future order counts from 00:00 UTC of its processing date, with the future allowance; the wait before is shown, not counted", () => {
    const history: OrderEvent[] = [placed("2026-03-02T08:00:00.000Z", "standard", "2026-03-10")];
    const before = replayClock(history, DEFAULT_POLICY, at("2026-03-05T00:00:00.000Z"))!;
    expect(before.fold.kind).toBe("future");
    expect(before.usedMs).toBe(0);
    expect(before.dueAt).toBe("2026-03-11T00:00:00.000Z");
    expect(before.segments).toEqual([expect.objectContaining({ state: "waiting", from: "2026-03-02T08:00:00.000Z", countedMs: 0 })]);
    const after = replayClock(history, DEFAULT_POLICY, at("2026-03-10T06:00:00.000Z"))!;
    expect(after.usedMs).toBe(6 * HOUR);
    expect(after.segments.map((segment) => [segment.state, segment.from, segment.to, segment.countedMs])).toEqual([
      ["waiting", "2026-03-02T08:00:00.000Z", "2026-03-10T00:00:00.000Z", 0],
      ["running", "2026-03-10T00:00:00.000Z", undefined, 6 * HOUR],
    ]);
  });

  it("a policy changed in between applies to orders paid after it only; each order says which version it runs under", () => {
    const policies = [policy(1, "2026-03-01T00:00:00.000Z", 600, 120), policy(2, "2026-03-02T12:00:00.000Z", 300, 60)];
    const early = placed("2026-03-02T08:00:00.000Z", "priority");
    const late = placed("2026-03-02T13:00:00.000Z", "priority");
    expect(startClock(early, policyInForce(policies, early.metadata.occurredAt))).toMatchObject({ policyVersion: 1, allowedMs: 2 * HOUR });
    expect(startClock(late, policyInForce(policies, late.metadata.occurredAt))).toMatchObject({ policyVersion: 2, allowedMs: 1 * HOUR });
    expect(policyInForce(policies, at("2026-02-28T00:00:00.000Z"))).toBe(DEFAULT_POLICY);
  });
});
