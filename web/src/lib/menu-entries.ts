import type { AppPath } from "../app/app-path.ts";
import { COUNT_FIELD_OF, isAllowed, ROLES, type Action, type FolderCounts, type QueueKey, type Role } from "@etd/contract";

/*
 * The side menu of 000 §2 (SHELL-1), in its order, with its labels and visibility, and the
 * dashboard tiles (SHELL-4). Each entry names the count that its badge shows; entries without a
 * folder (reports, settings) have none. In lib/: the shell shows them, and the Audit area names
 * its folders with their labels.
 */

export interface MenuEntry {
  /** A path the route tree serves: a menu entry to a missing screen fails the typecheck. */
  readonly to: AppPath;
  readonly label: string;
  readonly count?: keyof FolderCounts;
  /** Roles that see the entry; all roles when absent. */
  readonly roles?: readonly Role[];
}

/** The roles the permission matrix allows `action`: an entry shows where its screen's endpoints answer. */
const allowed = (action: Action): readonly Role[] => ROLES.filter((role) => isAllowed(role, action));

export const MENU_ENTRIES: readonly MenuEntry[] = [
  { to: "/admin/awaiting-response", label: "Awaiting Customer", count: "awaitingOrdersCount" },
  { to: "/admin/awaiting-govt", label: "Awaiting Govt", count: "awaitingGovtCount" },
  { to: "/admin/future-order", label: "Future Orders", count: "futureOrdersCount" },
  { to: "/admin/contact-customer", label: "Contact Customer", count: "contactCustomerOrdersCount" },
  { to: "/admin/called", label: "Customer Called", count: "customerCalledCount" },
  { to: "/admin/deleted-order", label: "Deleted Order", count: "deletedOrdersCount" },
  { to: "/admin/order-history", label: "Order History", count: "allOrdersCount", roles: allowed("orders.history") },
  { to: "/admin/refund-order", label: "Refunds", count: "refundOrdersCount" },
  { to: "/admin/chargeback", label: "Chargeback", count: "chargeBack" },
  // CARD-4 (issue 14, ours): the auditor's workspace, beside the queues it replays.
  { to: "/admin/audit", label: "Audit", roles: allowed("audit.read") },
  { to: "/admin/country-order", label: "Country Order List" },
  { to: "/admin/manage-team", label: "Manage Team", roles: allowed("staff.manage") },
  { to: "/admin/processed-order", label: "Order Processed", roles: allowed("orders.processed") },
  { to: "/admin/send-invoice", label: "Manage Invoices" },
  { to: "/admin/gateway-setting", label: "Gateway Setting", roles: allowed("gateways.manage") },
  // Issue 27 (ours): the service-level policy, read by Admin and Manager, set by an Admin.
  { to: "/admin/service-levels", label: "Service Levels", roles: allowed("service-levels.read") },
  // Issue 28 (ours): the operator's screen (read models, reactors, the log), Admin only.
  { to: "/admin/operations", label: "Operations", roles: allowed("operations.manage") },
  { to: "/admin/change-password", label: "Change Password", roles: allowed("password.change") },
  { to: "/logout", label: "Logout" },
];

export const menuFor = (role: Role | undefined): readonly MenuEntry[] =>
  MENU_ENTRIES.filter((entry) => !entry.roles || (role !== undefined && entry.roles.includes(role)));

export const DASHBOARD_TILES: readonly (MenuEntry & { count: keyof FolderCounts })[] = [
  { to: "/admin/my-order", label: "My Orders", count: "myOrdersCount" },
  { to: "/admin/recent-order", label: "New Orders", count: "newOrdersCount" },
  { to: "/admin/priority-order", label: "Priority Orders", count: "priorityOrdersCount" },
  { to: "/admin/pending-order", label: "Pending Orders", count: "pendingOrdersCount" },
  { to: "/admin/completed-order", label: "Completed Orders", count: "completedOrdersCount" },
];

/** A folder's entry, the one whose badge shows its count: its address and its label, as the tiles and the menu name it. */
export const folderEntryOf = (key: QueueKey): MenuEntry | undefined =>
  [...DASHBOARD_TILES, ...MENU_ENTRIES].find((entry) => entry.count === COUNT_FIELD_OF[key]);
