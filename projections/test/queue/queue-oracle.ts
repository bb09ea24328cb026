import type { Query } from "@etd/event-store";
import type { OrderId } from "@etd/events";
import type { OrderState } from "@etd/write";
import { COUNT_FIELD_OF, folderCounts, ordersList, QUEUE_KEYS, type QueueKey, type QueueViewer } from "../../src/queue/index.ts";

/*
 * DESIGN §4's folder rules restated over the write side's own fold of each order, so that the
 * read model is checked against something it does not share code with.
 */

const CLOSED = new Set(["Completed", "CompletedRefund", "Deleted"]);
const SINGLE: Partial<Record<QueueKey, readonly string[]>> = {
  pendingOrder: ["Pending"],
  completedOrder: ["Completed"],
  deletedOrder: ["Deleted"],
  awaitingOrder: ["Awaiting"],
  awaitingGovtOrder: ["AwaitingGovt"],
  customerCalledOrder: ["CustomerCalled"],
  contactCustomerOrder: ["ContactCustomer"],
  refundOrder: ["Refund", "CompletedRefund"],
  chargeBack: ["ChargeBack"],
};

export const expectedIn = (key: QueueKey, state: OrderState, viewer: QueueViewer): boolean => {
  if (!state.exists) return false;
  if (key === "allOrder") return true;
  if (key === "myOrder") return state.assignee?.staff.id === viewer.staffId && !CLOSED.has(state.status);
  // New and Priority orders nobody holds wait in their intake folder until their day, in Future before it.
  const waiting = state.assignee === undefined && (state.status === "New" || state.status === "Priority");
  const beforeItsDay = viewer.today < state.processingDate;
  if (key === "futureOrder") return waiting && beforeItsDay;
  if (key === "newOrder" || key === "priorityOrder") return waiting && !beforeItsDay && state.status === (key === "newOrder" ? "New" : "Priority");
  return (SINGLE[key] ?? []).includes(state.status);
};

/** Every order id of a folder, newest first, through the real list query ("All"). */
export const listAll = async (query: Query, key: QueueKey, viewer: QueueViewer): Promise<string[]> =>
  (await ordersList(query, { queueKey: key, page: 1, limit: "All", ...viewer })).rows.map((row) => row.order_id);

/** For each folder: what the counts say, the list's total and rows, and what the write side implies. */
export const folderReport = async (
  query: Query,
  viewer: QueueViewer,
  orders: ReadonlyMap<OrderId, OrderState> | readonly [OrderId, OrderState][],
) => {
  const counts = await folderCounts(query, viewer);
  const entries = [...(orders instanceof Map ? orders.entries() : (orders as readonly [OrderId, OrderState][]))];
  const report: Record<string, { count: number; total: number; listed: string[]; expected: string[] }> = {};
  for (const key of QUEUE_KEYS) {
    const page = await ordersList(query, { queueKey: key, page: 1, limit: "All", ...viewer });
    const listed = page.rows.map((row) => row.order_id);
    const expected = entries.filter(([, state]) => expectedIn(key, state, viewer)).map(([id]) => id as string);
    report[key] = { count: counts[COUNT_FIELD_OF[key]], total: page.total, listed: listed.sort(), expected: expected.sort() };
  }
  return report;
};
