import { describe, expect, it } from "vitest";
import { queueKeyCommand } from "../src/features/queues/hooks/use-queue-keyboard.ts";
import { confirmationWords, selectAllResult } from "../src/features/queues/components/bulk-actions.tsx";

/* Issue 16 B and C rules that need no browser: which key is which shortcut, and what a select-all result says. */

const press = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) =>
  queueKeyCommand({ key, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe("issue 16 C: the queues' shortcuts (QUEUE-2)", () => {
  it("maps j/k, the arrows, Enter, x, a, n (issue 27), / and ? and nothing else", () => {
    expect(["j", "ArrowDown", "k", "ArrowUp", "Enter", "x", "a", "n", "/", "?"].map((key) => press(key))).toEqual([
      "next",
      "next",
      "previous",
      "previous",
      "open",
      "toggle",
      "assign",
      "takeNext",
      "search",
      "help",
    ]);
    expect(press("J")).toBeUndefined();
    expect(press("N")).toBeUndefined();
    expect(press("Escape")).toBeUndefined();
    expect(press(" ")).toBeUndefined();
  });

  it("leaves every chord to the browser (Ctrl+A selects text, Cmd+K, Alt+J)", () => {
    expect(press("a", { ctrlKey: true })).toBeUndefined();
    expect(press("k", { metaKey: true })).toBeUndefined();
    expect(press("j", { altKey: true })).toBeUndefined();
    expect(press("n", { ctrlKey: true })).toBeUndefined();
  });
});

describe("issue 16 B: a select-all's confirmation and result (QUEUE-8)", () => {
  it("counts the orders in the confirmation only for a select-all", () => {
    expect(confirmationWords("Are you sure you want to delete?", 516)).toBe("Are you sure you want to delete? This applies to 516 orders.");
    expect(confirmationWords("Are you sure you want to delete?", 1)).toBe("Are you sure you want to delete? This applies to 1 order.");
    expect(confirmationWords("Are you sure you want to delete?", undefined)).toBe("Are you sure you want to delete?");
  });

  it("says how many changed, quotes up to three refusals and lists the rest by id", () => {
    const refused = ["11", "12", "13", "14", "15"].map((orderId) => ({ orderId, message: `Order ${orderId} changed after it was selected (now Pending); it was left as it is.` }));
    const answer = selectAllResult("delete", { status: 0, message: "5 of 7 orders were not changed. …", data: { changed: ["1", "2"], refused } }, 7);
    expect(answer.status).toBe(0);
    expect(answer.message).toBe(
      "2 of 7 orders deleted. 5 orders were left alone: Order 11 changed after it was selected (now Pending); it was left as it is. " +
        "Order 12 changed after it was selected (now Pending); it was left as it is. Order 13 changed after it was selected (now Pending); it was left as it is. " +
        "And 2 more: 14, 15.",
    );
    expect(selectAllResult("assign", { status: 1, message: "Order has been assigned successfully", data: { changed: ["1", "2"] } }, 2).message).toBe(
      "2 of 2 orders assigned to you.",
    );
  });

  it("keeps the server's words when it refused the whole request", () => {
    const refusal = { status: 0 as const, message: "asSelected must name each order once.", data: {} };
    expect(selectAllResult("delete", refusal, 3)).toBe(refusal);
  });
});
