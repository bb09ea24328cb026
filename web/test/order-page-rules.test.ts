import "./support/memory-storage.ts";
import { describe, expect, it } from "vitest";
import { changedAnswerOf } from "../src/features/orders/utils/order-answers.ts";
import { chatLinkFor } from "../src/features/orders/chat-link.ts";
import { isReadOnlyFor } from "../src/features/orders/components/order-page.tsx";
import { MOVES } from "../src/features/orders/components/move-buttons.tsx";
import { statusOf } from "@etd/contract";

/* The order page's rules that need no browser (issue 11, QUEUE-12, QUEUE-13, ORDER-11). */
describe("the order page's rules", () => {
  it("QUEUE-12: below Manager, an order assigned to someone else is read-only; own, unassigned, or Admin/Manager is not", () => {
    const assigned = { assign_to_id: "staff-b" };
    expect(isReadOnlyFor({ id: "staff-a", role: "Team" }, assigned)).toBe(true);
    expect(isReadOnlyFor({ id: "staff-a", role: "Telecaller" }, assigned)).toBe(true);
    expect(isReadOnlyFor({ id: "staff-a", role: "Night Staff" }, assigned)).toBe(true);
    expect(isReadOnlyFor({ id: "staff-b", role: "Team" }, assigned)).toBe(false);
    expect(isReadOnlyFor({ id: "staff-a", role: "Team" }, { assign_to_id: null })).toBe(false);
    expect(isReadOnlyFor({ id: "staff-a", role: "Manager" }, assigned)).toBe(false);
    expect(isReadOnlyFor({ id: "staff-a", role: "Admin" }, assigned)).toBe(false);
  });

  it("QUEUE-13: the chat link is the phone's digits with the country code, or none without a number", () => {
    expect(chatLinkFor("917 555 0101", "+1")).toBe("https://wa.me/19175550101");
    expect(chatLinkFor("+63 917 555 0101", "+1")).toBe("https://wa.me/639175550101");
    expect(chatLinkFor("", "+63")).toBeUndefined();
    expect(chatLinkFor(undefined, undefined)).toBeUndefined();
  });

  it("changed since you opened it: only a refusal carrying data.changed is one", () => {
    const changed = { changed: true, version: 7, changes: [] };
    expect(changedAnswerOf({ status: 0, message: "changed", data: changed })).toEqual(changed);
    expect(changedAnswerOf({ status: 0, message: "not found", data: null })).toBeUndefined();
    expect(changedAnswerOf({ status: 1, message: "ok", data: changed })).toBeUndefined();
  });

  it("ORDER-11: each move button names a status the server understands, the one it moves to", () => {
    expect(MOVES.map((move) => move.label)).toEqual([
      "Awaiting Response",
      "Completed Refunds",
      "Completed Orders",
      "Delete",
      "Contact Customer",
      "Awaiting Govt",
      "Customer Called",
      "ChargeBack",
    ]);
    for (const move of MOVES) expect(statusOf(move.updatingStatus), move.label).toBe(move.to);
  });
});
