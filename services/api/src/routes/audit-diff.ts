import type { AuditChange } from "@etd/contract";

/*
 * What changed between two moments (CARD-4), field by field. The rules, as the diff view shows
 * them:
 * - Objects are compared key by key, by dotted path ("order.assignee.staff.name").
 * - A key absent or undefined on one side only is `added` (with `after`) or `removed` (with
 *   `before`), whole: an assignee appearing is one change, `order.assignee`, not one per leaf.
 * - Arrays are compared element by element, by index ("remarks.2"): the lists an order carries
 *   (remarks, flags) only grow at their end, so a remark written between the two moments reads
 *   as `remarks.2` added. A value inserted at the front would read as every later index
 *   changed: none of the order's lists does that.
 * - Anything else (strings, numbers, null, an object on one side and not the other) that differs
 *   is `changed`, with both values.
 */

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const join = (path: string, key: string | number) => (path === "" ? String(key) : `${path}.${String(key)}`);

const childrenOf = (value: Record<string, unknown> | readonly unknown[]): Map<string, unknown> =>
  Array.isArray(value) ? new Map(value.map((item, index) => [String(index), item])) : new Map(Object.entries(value));

const sortedKeys = (a: Map<string, unknown>, b: Map<string, unknown>, numeric: boolean): string[] => {
  const keys = [...new Set([...a.keys(), ...b.keys()])];
  return numeric ? keys.sort((x, y) => Number(x) - Number(y)) : keys.sort();
};

export const diffValues = (before: unknown, after: unknown, path = ""): AuditChange[] => {
  if (before === undefined && after === undefined) return [];
  const at = path === "" ? "(whole)" : path;
  if (before === undefined) return [{ path: at, kind: "added", after }];
  if (after === undefined) return [{ path: at, kind: "removed", before }];
  const bothArrays = Array.isArray(before) && Array.isArray(after);
  if (bothArrays || (isRecord(before) && isRecord(after))) {
    const a = childrenOf(before as Record<string, unknown>);
    const b = childrenOf(after as Record<string, unknown>);
    return sortedKeys(a, b, bothArrays).flatMap((key) => diffValues(a.get(key), b.get(key), join(path, key)));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path: at, kind: "changed", before, after }];
};
