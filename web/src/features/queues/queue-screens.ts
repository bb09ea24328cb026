import { isAllowed, queueColumnsOf, type QueueColumnDefinition, type QueueKey, type Role } from "@etd/contract";
import { BULK_ACTIONS, BULK_COMMANDS, type BulkAction } from "./components/bulk-actions.tsx";

/*
 * The fourteen queue screens (QUEUE-1) as data: where each lives, which server folder it reads
 * (000 §4 queue keys, the contract's), its heading and its columns; which bulk actions it offers is
 * each action's entry (components/bulk-actions.tsx, `folders`).
 * Who is offered an action is the contract's permission matrix (000 §6), the one the server
 * checks again; hiding a button is a courtesy.
 */

export type { QueueKey };

export interface QueueScreen {
  /** Below /admin, e.g. "recent-order". */
  readonly path: string;
  readonly queueKey: QueueKey;
  readonly title: string;
  /** Its columns, Action left out: its column set's, with Due where the clock runs (DUE_FOLDERS, issue 27). */
  readonly columns: readonly QueueColumnDefinition[];
  /** Delete per row in the Action column, to the roles the matrix lets delete (000 §6: Manager and Admin). */
  readonly rowDelete: boolean;
  /** Where a screen offers Delete to fewer roles than the matrix allows (000 §6: My Orders, Admin only). */
  readonly deleteOnlyFor?: readonly Role[];
  /** QUEUE-12, ADMIN-7: View is greyed and inert for orders assigned to someone else. */
  readonly viewOnlyOwnOrUnassigned: boolean;
}

/** A folder of whole statuses: Delete for whoever may delete (000 §6 "default tables"). */
const statusFolder = (path: string, queueKey: Exclude<QueueKey, "futureOrder">, title: string): QueueScreen => ({
  path,
  queueKey,
  title,
  columns: queueColumnsOf(queueKey),
  rowDelete: true,
  viewOnlyOwnOrUnassigned: false,
});

/** New and Priority: Assign to me and Delete (QUEUE-8, QUEUE-9). */
const intakeFolder = (path: string, queueKey: "newOrder" | "priorityOrder", title: string): QueueScreen => ({
  path,
  queueKey,
  title,
  columns: queueColumnsOf(queueKey),
  rowDelete: true,
  viewOnlyOwnOrUnassigned: true,
});

export const QUEUE_SCREENS: readonly QueueScreen[] = [
  intakeFolder("recent-order", "newOrder", "New Order"),
  intakeFolder("priority-order", "priorityOrder", "Priority Order"),
  statusFolder("pending-order", "pendingOrder", "Pending Orders"),
  statusFolder("completed-order", "completedOrder", "Completed Orders"),
  // Deleting a deleted order can only be refused, so the Deleted Orders list offers no Delete.
  { ...statusFolder("deleted-order", "deletedOrder", "Deleted Orders"), rowDelete: false },
  statusFolder("awaiting-response", "awaitingOrder", "Awaiting Response"),
  statusFolder("awaiting-govt", "awaitingGovtOrder", "Awaiting Govt"),
  statusFolder("called", "customerCalledOrder", "Customer Called"),
  statusFolder("order-history", "allOrder", "Order History"),
  statusFolder("contact-customer", "contactCustomerOrder", "Contact Customer"),
  {
    ...statusFolder("refund-order", "refundOrder", "Refund Orders"),
    // QUEUE-3: the refund table's Action column is View only.
    rowDelete: false,
  },
  {
    path: "my-order",
    queueKey: "myOrder",
    title: "My Orders",
    columns: queueColumnsOf("myOrder"),
    rowDelete: true,
    deleteOnlyFor: ["Admin"],
    viewOnlyOwnOrUnassigned: false,
  },
  // 001 §2: the Chargeback list is titled New Order, with My Order's columns.
  { ...statusFolder("chargeback", "chargeBack", "New Order"), viewOnlyOwnOrUnassigned: true },
];

/** Whether `role` is offered `action` on `screen`; nobody is offered anything before the session is known. */
const offered = (screen: QueueScreen, action: BulkAction, role: Role | undefined): boolean =>
  role !== undefined &&
  isAllowed(role, BULK_COMMANDS[action].permission) &&
  (action !== "delete" || screen.deleteOnlyFor === undefined || screen.deleteOnlyFor.includes(role));

/** The bulk actions `role` is offered on `screen`, in the order the toolbar shows them. */
export const bulkActionsFor = (screen: QueueScreen, role: Role | undefined): BulkAction[] =>
  BULK_ACTIONS.filter((action) => BULK_COMMANDS[action].folders.includes(screen.queueKey) && offered(screen, action, role));

/** Whether `role` sees Delete in each row's Action column. */
export const rowDeleteFor = (screen: QueueScreen, role: Role | undefined): boolean => screen.rowDelete && offered(screen, "delete", role);

/**
 * QUEUE-12: on New, Priority and the Chargeback list an order assigned to someone else cannot be
 * opened from the list; unassigned orders and the viewer's own open normally.
 */
export const canOpenOrder = (screen: QueueScreen, assigneeId: string | null, viewerId: string | undefined): boolean =>
  !screen.viewOnlyOwnOrUnassigned || assigneeId === null || assigneeId === "" || assigneeId === viewerId;

/** Future Orders (ADMIN-3): Delete Order and per-row Delete for whoever may delete (001 §6's intended rule). */
export const futureDeleteFor = (role: Role | undefined): boolean => role !== undefined && isAllowed(role, BULK_COMMANDS.delete.permission);
