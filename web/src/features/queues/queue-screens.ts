import type { Role } from "../../lib/session.ts";

/*
 * The fourteen queue screens (QUEUE-1) as data: where each lives, which server folder it reads
 * (000 §4 queue keys), its heading, its columns and the bulk actions each role is offered
 * (000 §6). The server checks every permission again; hiding a button is a courtesy.
 */

export type QueueKey =
  | "newOrder"
  | "priorityOrder"
  | "pendingOrder"
  | "completedOrder"
  | "deletedOrder"
  | "awaitingOrder"
  | "awaitingGovtOrder"
  | "customerCalledOrder"
  | "allOrder"
  | "contactCustomerOrder"
  | "refundOrder"
  | "futureOrder"
  | "myOrder"
  | "chargeBack";

/**
 * The column sets of QUEUE-3 and 001 §2:
 * - standard: Order Id, Name, Email, Telephone, Arrival Date, Date & Time, Status, Action
 * - intake (New, Priority): the same with Departure Date after Date & Time
 * - noTelephone (Contact Customer): standard without Telephone
 * - refund: Order Id, Email, Telephone, Date & Time, Refund Date, Status, Action (View only)
 * - assigned (My Order, Chargeback list, 001 §2): Order Id, Name, Email, Telephone, Date and Time,
 *   Departure Date, Status, Action
 */
export type ColumnSet = "standard" | "intake" | "noTelephone" | "refund" | "assigned";

export type BulkAction = "assign" | "delete" | "moveToOriginal" | "refunded";

export interface QueueScreen {
  /** Below /admin, e.g. "recent-order". */
  readonly path: string;
  readonly queueKey: QueueKey;
  readonly title: string;
  readonly columns: ColumnSet;
  /** Bulk actions and the roles offered each (all roles when the list is empty). */
  readonly actions: Partial<Record<BulkAction, readonly Role[] | "all">>;
  /** Delete per row in the Action column (000 §6: only Manager and Admin see it). */
  readonly rowDelete: readonly Role[];
  /** QUEUE-12, ADMIN-7: View is greyed and inert for orders assigned to someone else. */
  readonly viewOnlyOwnOrUnassigned: boolean;
}

const ADMIN_AND_MANAGER: readonly Role[] = ["Admin", "Manager"];
const ADMIN: readonly Role[] = ["Admin"];

/** A folder of whole statuses: Delete for Admin and Manager (000 §6 "default tables"). */
const statusFolder = (path: string, queueKey: QueueKey, title: string, columns: ColumnSet = "standard"): QueueScreen => ({
  path,
  queueKey,
  title,
  columns,
  actions: { delete: ADMIN_AND_MANAGER },
  rowDelete: ADMIN_AND_MANAGER,
  viewOnlyOwnOrUnassigned: false,
});

/** New and Priority: Assign to me for everyone, Delete for Admin and Manager (QUEUE-8, QUEUE-9). */
const intakeFolder = (path: string, queueKey: QueueKey, title: string): QueueScreen => ({
  path,
  queueKey,
  title,
  columns: "intake",
  actions: { assign: "all", delete: ADMIN_AND_MANAGER },
  rowDelete: ADMIN_AND_MANAGER,
  viewOnlyOwnOrUnassigned: true,
});

export const QUEUE_SCREENS: readonly QueueScreen[] = [
  intakeFolder("recent-order", "newOrder", "New Order"),
  intakeFolder("priority-order", "priorityOrder", "Priority Order"),
  statusFolder("pending-order", "pendingOrder", "Pending Orders"),
  statusFolder("completed-order", "completedOrder", "Completed Orders"),
  // Deleting a deleted order can only be refused, so the Deleted Orders list offers no Delete.
  { ...statusFolder("deleted-order", "deletedOrder", "Deleted Orders"), actions: {}, rowDelete: [] },
  statusFolder("awaiting-response", "awaitingOrder", "Awaiting Response"),
  statusFolder("awaiting-govt", "awaitingGovtOrder", "Awaiting Govt"),
  statusFolder("called", "customerCalledOrder", "Customer Called"),
  statusFolder("order-history", "allOrder", "Order History"),
  statusFolder("contact-customer", "contactCustomerOrder", "Contact Customer", "noTelephone"),
  {
    ...statusFolder("refund-order", "refundOrder", "Refund Orders", "refund"),
    actions: { refunded: "all", delete: ADMIN_AND_MANAGER },
    // QUEUE-3: the refund table's Action column is View only.
    rowDelete: [],
  },
  {
    path: "my-order",
    queueKey: "myOrder",
    title: "My Orders",
    columns: "assigned",
    actions: { moveToOriginal: "all", delete: ADMIN },
    rowDelete: ADMIN,
    viewOnlyOwnOrUnassigned: false,
  },
  // 001 §2: the Chargeback list is titled New Order, with My Order's columns.
  { ...statusFolder("chargeback", "chargeBack", "New Order", "assigned"), viewOnlyOwnOrUnassigned: true },
];

/** Nobody is offered anything before the session is known. */
const offered = (roles: readonly Role[] | "all" | undefined, role: Role | undefined): boolean =>
  role !== undefined && (roles === "all" || (roles !== undefined && roles.includes(role)));

/** The bulk actions `role` is offered on `screen`, in the order the toolbar shows them. */
export const bulkActionsFor = (screen: QueueScreen, role: Role | undefined): BulkAction[] =>
  (["assign", "moveToOriginal", "refunded", "delete"] as const).filter((action) => offered(screen.actions[action], role));

/** Whether `role` sees Delete in each row's Action column. */
export const rowDeleteFor = (screen: QueueScreen, role: Role | undefined): boolean => offered(screen.rowDelete, role);

/**
 * QUEUE-12: on New, Priority and the Chargeback list an order assigned to someone else cannot be
 * opened from the list; unassigned orders and the viewer's own open normally.
 */
export const canOpenOrder = (screen: QueueScreen, assigneeId: string | null, viewerId: string | undefined): boolean =>
  !screen.viewOnlyOwnOrUnassigned || assigneeId === null || assigneeId === "" || assigneeId === viewerId;

/** Future Orders (ADMIN-3): Delete Order and per-row Delete for Admin and Manager (001 §6's intended rule). */
export const futureDeleteFor = (role: Role | undefined): boolean => offered(ADMIN_AND_MANAGER, role);
