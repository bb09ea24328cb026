/*
 * The catalogue's words as plain constants, with no schema library: the event schemas are built
 * from them (shared/role.ts, orders/order-status.ts), and @etd/contract hands the same constants
 * to the web app, whose bundle must not carry the schema library for a few lists of words.
 * Nothing here may import anything (ADR 0012).
 */

/** Staff roles (000 §6); the names are the spec's own, shown to users as they are. */
export const ROLES = ["Admin", "Manager", "Team", "Telecaller", "Night Staff"] as const;

/**
 * An order's process status (DESIGN §4). Folders are computed from status, assignee and
 * processing date; they are not statuses. `Deleted` is a soft delete: moving the order to
 * another status undoes it.
 */
export const ORDER_STATUSES = [
  "New",
  "Priority",
  "Pending",
  "Awaiting",
  "AwaitingGovt",
  "ContactCustomer",
  "CustomerCalled",
  "Completed",
  "Refund",
  "CompletedRefund",
  "ChargeBack",
  "Deleted",
] as const;

/**
 * Status values as staff read them: the menu's and the move buttons' wording (000 §2, 001 §2).
 * One map for every message, list, screen and audit line that names a status.
 */
export const ORDER_STATUS_LABELS: { readonly [S in (typeof ORDER_STATUSES)[number]]: string } = {
  New: "New",
  Priority: "Priority",
  Pending: "Pending",
  Awaiting: "Awaiting Customer",
  AwaitingGovt: "Awaiting Govt",
  ContactCustomer: "Contact Customer",
  CustomerCalled: "Customer Called",
  Completed: "Completed",
  Refund: "Refund",
  CompletedRefund: "Completed Refund",
  ChargeBack: "Chargeback",
  Deleted: "Deleted",
};

export const statusLabel = (status: (typeof ORDER_STATUSES)[number]): string => ORDER_STATUS_LABELS[status];

/** What the customer paid for; decides whether a new order starts in `New` or `Priority`. */
export const PROCESSING_MODES = ["standard", "priority"] as const;

/**
 * The refusal of a decisive action sent with a version of the order that is no longer its last
 * (a stale page): the write side gives it, the API and the web app show it.
 */
export const ORDER_CHANGED_MESSAGE = "This order has changed since you opened it. Nothing was changed; please check and try again.";

/** The two customer-facing sites (brands) an order can come from (001 §1, PUBLIC-3). */
export const LANDING_DOMAINS = ["primary", "secondary"] as const;
