import type { OrderStatus } from "@etd/events";
import { QUEUE_KEYS, type QueueKey } from "@etd/contract";

/*
 * The order folders (DESIGN §4) and the queue keys the client fetches them by (000 §4). A folder
 * is a function of (status, assignee, processing date, today, who is asking); it is never stored,
 * because "today" moves on without any event.
 *
 * Refund decision: the Refund folder lists both `Refund` (waiting for the money to go back) and
 * `CompletedRefund` ("Refunded it" was pressed). The spec has no Completed Refund folder, the
 * refund table shows a Status column and a Refund Date for every row, and without this a refunded
 * order could only be found in Order History. Counts and lists follow the same rule.
 */

/** The queue keys, the counts object and which count is a list's total are the wire contract's. */
export { COUNT_FIELD_OF, QUEUE_KEYS, type FolderCounts, type QueueKey } from "@etd/contract";

/** The statuses a folder of one or more whole statuses holds. */
export const FOLDER_STATUSES = {
  pendingOrder: ["Pending"],
  completedOrder: ["Completed"],
  deletedOrder: ["Deleted"],
  awaitingOrder: ["Awaiting"],
  awaitingGovtOrder: ["AwaitingGovt"],
  customerCalledOrder: ["CustomerCalled"],
  contactCustomerOrder: ["ContactCustomer"],
  refundOrder: ["Refund", "CompletedRefund"],
  chargeBack: ["ChargeBack"],
} as const satisfies Partial<Record<QueueKey, readonly OrderStatus[]>>;

/** An assigned order stays in My Orders until it is finished or deleted. */
export const CLOSED_STATUSES = ["Completed", "CompletedRefund", "Deleted"] as const satisfies readonly OrderStatus[];

/** What decides an order's folders. */
export interface QueueFolderFacts {
  readonly status: OrderStatus;
  readonly assigneeId: string | null;
  /** YYYY-MM-DD */
  readonly processingDate: string;
}

/** Who is asking and when: the folder rules that depend on neither are the same for everyone. */
export interface QueueViewer {
  /** YYYY-MM-DD in UTC. */
  readonly today: string;
  readonly staffId: string;
}

/** Whether an order is in a folder (DESIGN §4); the SQL in queue-queries.ts says the same. */
export const isInFolder = (key: QueueKey, order: QueueFolderFacts, viewer: QueueViewer): boolean => {
  const unassigned = order.assigneeId === null;
  const due = order.processingDate <= viewer.today;
  switch (key) {
    case "newOrder":
      return order.status === "New" && unassigned && due;
    case "priorityOrder":
      return order.status === "Priority" && unassigned && due;
    case "futureOrder":
      return (order.status === "New" || order.status === "Priority") && unassigned && !due;
    case "myOrder":
      return order.assigneeId === viewer.staffId && !(CLOSED_STATUSES as readonly string[]).includes(order.status);
    case "allOrder":
      return true;
    default:
      return (FOLDER_STATUSES[key] as readonly OrderStatus[]).includes(order.status);
  }
};

const normalised = (name: string) => name.toLowerCase().replace(/[^a-z]/g, "");

/**
 * Every name a folder goes by: its queue key (000 §4), its folder name (000 §4), its menu label
 * and route (000 §2). The search call's `folderName` is not shown in the spec, so any of them works.
 */
const ALIASES: { readonly [K in QueueKey]: readonly string[] } = {
  newOrder: ["new", "newOrders", "recentOrder", "recent"],
  priorityOrder: ["priority", "priorityOrders"],
  pendingOrder: ["pending", "pendingOrders"],
  completedOrder: ["completed", "completedOrders"],
  deletedOrder: ["deleted", "deletedOrders"],
  awaitingOrder: ["awaiting", "awaitingCustomer", "awaitingResponse", "awaitingOrders"],
  awaitingGovtOrder: ["awaitingGovt", "awaitingGovernment"],
  customerCalledOrder: ["customerCalled", "called"],
  allOrder: ["all", "allOrders", "history", "orderHistory"],
  contactCustomerOrder: ["contactCustomer"],
  refundOrder: ["refund", "refunds", "refundOrders"],
  futureOrder: ["future", "futureOrders"],
  myOrder: ["my", "myOrders"],
  chargeBack: ["chargeback", "chargeBacks", "chargebackOrder"],
};

const BY_NAME: ReadonlyMap<string, QueueKey> = new Map(
  QUEUE_KEYS.flatMap((key) => [key, ...ALIASES[key]].map((name) => [normalised(name), key] as const)),
);

/** The queue a name stands for, in any case and spacing ("newOrder", "Order History", "refund-order"). */
export const queueKeyOf = (name: string): QueueKey | undefined => BY_NAME.get(normalised(name));
