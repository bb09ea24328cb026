import { QUEUE_KEYS, type AuditEvent } from "@etd/contract";
import { describe, expect, it } from "vitest";
import {
  actorLabel,
  clampPosition,
  diffKindView,
  easternInputToIso,
  eventAtPosition,
  flattenFields,
  FOLDER_OPTIONS,
  folderLabel,
  isoToEasternInput,
  momentAtPosition,
  orderHeadline,
  positionOfEvent,
  presentValue,
  verifyBadgeView,
} from "../src/features/audit/audit-model.ts";
import { rangeProblem, validateQueueAtSearch, validateRangeSearch } from "../src/features/audit/audit-search.ts";

/*
 * The Audit area's pure rules (CARD-4, issue 14): what the replay slider stands on, how a diff's
 * kinds read without colour, how typed moments become instants (US Eastern, as the console shows
 * them), which folders may be asked for, and what the verify badge says.
 */

const event = (n: number, occurredAt: string, summary = `event ${n}`): AuditEvent => ({
  stream: "order-300001",
  streamPosition: n,
  position: `1.${n}`,
  eventId: `e${n}`,
  type: "OrderStatusChanged",
  occurredAt,
  actor: { kind: "staff", id: "7", name: "Maria Santos", role: "Manager" },
  requestIp: "203.0.113.9",
  correlationId: `c${n}`,
  summary,
  orderId: "300001",
  data: {},
});

const events = [event(1, "2025-03-14T10:00:00.000Z"), event(2, "2025-03-14T10:00:01.500Z"), event(3, "2025-03-14T10:00:03.000Z")];

describe("CARD-4 replay slider: position k shows the order after event k", () => {
  it("asks as-of at event k's own time, positions counted from 1", () => {
    expect(momentAtPosition(events, 1)).toBe("2025-03-14T10:00:00.000Z");
    expect(momentAtPosition(events, 2)).toBe("2025-03-14T10:00:01.500Z");
    expect(eventAtPosition(events, 3)?.eventId).toBe("e3");
    expect(positionOfEvent(events, "e2")).toBe(2);
    expect(positionOfEvent(events, "nope")).toBe(0);
  });

  it("clamps a stale or wild position to an event that exists; an empty history has none", () => {
    expect(clampPosition(0, 3)).toBe(1);
    expect(clampPosition(9, 3)).toBe(3);
    expect(clampPosition(Number.NaN, 3)).toBe(3);
    expect(clampPosition(2.4, 3)).toBe(2);
    expect(clampPosition(1, 0)).toBe(0);
    expect(momentAtPosition([], 1)).toBeUndefined();
  });

  it("names who did it with their role, and the system without one", () => {
    expect(actorLabel(events[0]!)).toBe("Maria Santos (Manager)");
    expect(actorLabel({ ...events[0]!, actor: { kind: "system", id: null, name: "order-intake", role: null } })).toBe("order-intake");
  });
});

describe("CARD-4 diff: added, changed and removed each read differently, not by colour alone", () => {
  it("gives each kind its own word, symbol and style", () => {
    const kinds = (["added", "changed", "removed"] as const).map(diffKindView);
    expect(kinds.map((k) => k.word)).toEqual(["Added", "Changed", "Removed"]);
    expect(new Set(kinds.map((k) => k.icon)).size).toBe(3);
    expect(new Set(kinds.map((k) => k.className)).size).toBe(3);
  });

  it("shows values as text: strings as they are, nothing as a dash, the rest as JSON", () => {
    expect(presentValue("Pending")).toBe("Pending");
    expect(presentValue(undefined)).toBe("—");
    expect(presentValue(null)).toBe("—");
    expect(presentValue(3)).toBe("3");
    expect(presentValue(false)).toBe("false");
    expect(presentValue({ name: "Ann" })).toBe('{"name":"Ann"}');
  });

  it("lists an order's fields by dotted path, a list as one field", () => {
    expect(flattenFields({ status: "New", assignee: { staff: { id: "7", name: "Ann" } }, tags: ["a"] })).toEqual([
      ["status", "New"],
      ["assignee.staff.id", "7"],
      ["assignee.staff.name", "Ann"],
      ["tags", ["a"]],
    ]);
    expect(flattenFields({ id: "t1" }, "transaction")).toEqual([["transaction.id", "t1"]]);
    expect(flattenFields(undefined, "transaction")).toEqual([["transaction", undefined]]);
  });

  it("leads the as-of panel with the status in words and the assignee's name", () => {
    expect(orderHeadline({ exists: true, status: "Pending", statusLabel: "Pending", assignee: { staff: { id: "7", name: "Tom Team" }, at: "x" } })).toEqual({
      exists: true,
      statusLabel: "Pending",
      assignee: "Tom Team",
    });
    expect(orderHeadline({ exists: true, status: "New", statusLabel: "New", assignee: undefined }).assignee).toBe("Unassigned");
    expect(orderHeadline({ exists: false })).toEqual({ exists: false, statusLabel: "Not placed yet", assignee: "—" });
  });
});

describe("CARD-4 moments are typed in US Eastern wall time, whatever the browser's zone", () => {
  it("reads winter times as EST (UTC−5) and summer times as EDT (UTC−4)", () => {
    expect(easternInputToIso("2025-01-15T10:00:00")).toBe("2025-01-15T15:00:00.000Z");
    expect(easternInputToIso("2025-07-04T12:30")).toBe("2025-07-04T16:30:00.000Z");
  });

  it("gets the days daylight saving starts and ends right", () => {
    // 2025-03-09: clocks go from 02:00 EST to 03:00 EDT; 2025-11-02: from 02:00 EDT back to 01:00 EST.
    expect(easternInputToIso("2025-03-09T01:59:59")).toBe("2025-03-09T06:59:59.000Z");
    expect(easternInputToIso("2025-03-09T03:00:00")).toBe("2025-03-09T07:00:00.000Z");
    expect(easternInputToIso("2025-11-02T03:00:00")).toBe("2025-11-02T08:00:00.000Z");
  });

  it("turns an instant back into the input's value, to the second", () => {
    expect(isoToEasternInput("2025-01-15T15:00:07.900Z")).toBe("2025-01-15T10:00:07");
    expect(isoToEasternInput("2025-07-04T16:30:00Z")).toBe("2025-07-04T12:30:00");
    for (const iso of ["2025-03-14T10:04:12.000Z", "2025-11-02T12:00:00.000Z", "2026-12-31T23:59:59.000Z"]) expect(easternInputToIso(isoToEasternInput(iso))).toBe(iso);
  });

  it("refuses what is not a date and time", () => {
    expect(easternInputToIso("")).toBeUndefined();
    expect(easternInputToIso("2025-01-15")).toBeUndefined();
    expect(easternInputToIso("yesterday")).toBeUndefined();
    expect(isoToEasternInput("nope")).toBe("");
  });
});

describe("CARD-4 queue at a moment: every folder, with its menu label", () => {
  it("offers each of the 14 queue keys once, labelled as the dashboard and the menu label them", () => {
    expect(FOLDER_OPTIONS.map((o) => o.key).sort()).toEqual([...QUEUE_KEYS].sort());
    expect(new Set(FOLDER_OPTIONS.map((o) => o.label)).size).toBe(QUEUE_KEYS.length);
    expect(folderLabel("newOrder")).toBe("New Orders");
    expect(folderLabel("myOrder")).toBe("My Orders");
    expect(folderLabel("awaitingOrder")).toBe("Awaiting Customer");
    expect(folderLabel("futureOrder")).toBe("Future Orders");
    expect(folderLabel("allOrder")).toBe("Order History");
    expect(folderLabel("chargeBack")).toBe("Chargeback");
    // The dashboard's tiles first, then the menu's order.
    expect(FOLDER_OPTIONS.slice(0, 5).map((o) => o.label)).toEqual(["My Orders", "New Orders", "Priority Orders", "Pending Orders", "Completed Orders"]);
  });
});

describe("CARD-4 the screens' URLs are user input", () => {
  it("keeps a valid folder, moment, page and staff id, and drops anything else", () => {
    expect(validateQueueAtSearch({ folder: "pendingOrder", at: "2025-03-14T10:04:12Z", page: "2", staffId: "abc-1" })).toEqual({
      folder: "pendingOrder",
      at: "2025-03-14T10:04:12.000Z",
      page: 2,
      staffId: "abc-1",
    });
    expect(validateQueueAtSearch({ folder: "nope", at: "1", page: "0", staffId: "a b" })).toEqual({});
    expect(validateQueueAtSearch({ page: 1 })).toEqual({});
    expect(validateRangeSearch({ staffId: 12, from: "2025-01-01T00:00:00Z", to: "garbage" })).toEqual({ staffId: "12", from: "2025-01-01T00:00:00.000Z" });
  });

  it("wants both ends of a range, in order", () => {
    expect(rangeProblem(undefined, "2025-01-01T00:00:00Z")).toBe("Give both moments: From and To.");
    expect(rangeProblem("2025-01-02T00:00:00Z", "2025-01-01T00:00:00Z")).toBe("From must not be after To.");
    expect(rangeProblem("2025-01-01T00:00:00Z", "2025-01-01T00:00:00Z")).toBeUndefined();
  });
});

describe("issue 14 verify badge", () => {
  it("says not verified until asked, the count when the chain holds, and the first broken event when it does not", () => {
    expect(verifyBadgeView(undefined)).toMatchObject({ tone: "unknown", text: "Not verified yet" });
    const base = { checked: 1234, sealed: 1234, headHash: "ab", verifiedAt: "2025-01-01T00:00:00Z", millis: 12 };
    expect(verifyBadgeView({ ...base, ok: true, firstBreak: null })).toMatchObject({ tone: "ok", text: "Log verified: 1234 events, chain intact" });
    expect(
      verifyBadgeView({ ...base, ok: false, firstBreak: { streamId: "order-300001", streamPosition: "7", eventId: "0190-ab", reason: "content" } }),
    ).toMatchObject({ tone: "broken", text: "Tampering detected at order-300001 #7 (0190-ab)" });
  });
});
