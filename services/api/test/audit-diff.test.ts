import { describe, expect, it } from "vitest";
import { diffValues } from "../src/routes/audit-diff.ts";

/* CARD-4, issue 14: the diff between two moments names each changed field once, with its kind. */

describe("CARD-4 diff of two moments", () => {
  it("a key absent or undefined on one side is added or removed, whole; a differing value is changed with both sides", () => {
    const before = { status: "New", assignee: undefined, lastChange: { by: "order-intake", at: "t0" }, refundDate: "2025-01-01", payment: null };
    const after = { status: "Pending", assignee: { staff: { name: "Tessa Cruz" } }, lastChange: { by: "order-intake", at: "t1" }, payment: null };
    expect(diffValues(before, after)).toEqual([
      { path: "assignee", kind: "added", after: { staff: { name: "Tessa Cruz" } } },
      { path: "lastChange.at", kind: "changed", before: "t0", after: "t1" },
      { path: "refundDate", kind: "removed", before: "2025-01-01" },
      { path: "status", kind: "changed", before: "New", after: "Pending" },
    ]);
  });

  it("a remark written between the two moments reads as remarks.<index> added; one dropped as removed", () => {
    const one = { remark: "Called.", flags: ["telephone"] };
    const two = { remark: "Passport received.", flags: [] };
    const three = { remark: "Done.", flags: ["whatsapp"] };
    expect(diffValues({ remarks: [one, two] }, { remarks: [one, two, three] })).toEqual([{ path: "remarks.2", kind: "added", after: three }]);
    expect(diffValues({ remarks: [one, two, three] }, { remarks: [one] })).toEqual([
      { path: "remarks.1", kind: "removed", before: two },
      { path: "remarks.2", kind: "removed", before: three },
    ]);
    // Indices sort as numbers, not as text ("remarks.10" after "remarks.9").
    const many = Array.from({ length: 11 }, (_, i) => ({ remark: String(i) }));
    expect(diffValues({ remarks: many.slice(0, 9) }, { remarks: many }).map((c) => c.path)).toEqual(["remarks.9", "remarks.10"]);
    expect(diffValues({ remarks: [one] }, { remarks: [{ ...one, flags: ["telephone", "whatsapp"] }] })).toEqual([{ path: "remarks.0.flags.1", kind: "added", after: "whatsapp" }]);
  });

  it("equal moments have no changes; a shape that changes (object to text, array to object) is one change", () => {
    expect(diffValues({ a: { b: [1, { c: null }] } }, { a: { b: [1, { c: null }] } })).toEqual([]);
    expect(diffValues({ order: { exists: false } }, { order: "gone" })).toEqual([{ path: "order", kind: "changed", before: { exists: false }, after: "gone" }]);
    expect(diffValues({ x: [1] }, { x: { 0: 1 } })).toEqual([{ path: "x", kind: "changed", before: [1], after: { 0: 1 } }]);
    expect(diffValues({ x: null }, { x: 0 })).toEqual([{ path: "x", kind: "changed", before: null, after: 0 }]);
  });
});
