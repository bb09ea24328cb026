import { LANDING_DOMAINS, ORDER_STATUSES, PROCESSING_MODES, ROLES } from "@etd/events/vocabulary";

/*
 * The words the API and the web app both use. Roles, statuses and their labels are the event
 * catalogue's (events/src/vocabulary.ts, plain constants), passed on as they are: the write side
 * and the read models use the same words in their messages, and they may import only events.
 * Everything in this module and the others of the package root is plain data: the web app
 * imports it at run time, and its bundle must not carry a schema library (ADR 0012).
 */

export { ROLES, ORDER_STATUSES, ORDER_STATUS_LABELS, statusLabel, PROCESSING_MODES, LANDING_DOMAINS } from "@etd/events/vocabulary";

export type Role = (typeof ROLES)[number];
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type ProcessingMode = (typeof PROCESSING_MODES)[number];
export type LandingDomain = (typeof LANDING_DOMAINS)[number];

/** ORDER-4: the site's "Regular Processing" is shown as "Standard Processing". */
export const PROCESSING_MODE_LABELS = {
  standard: "Standard Processing",
  priority: "Priority Processing",
} as const satisfies { readonly [M in ProcessingMode]: string };

/**
 * The read models (projections) by name: the first element of every web query key, what the live
 * feed says moved, and what a query waits for with `X-Read-After`.
 */
export const READ_MODELS = ["queue", "order_details", "reports", "staff", "gateways", "dashboard"] as const;
export type ReadModel = (typeof READ_MODELS)[number];

/**
 * The status names a client may send to change-order-status: 000 §4 does not show the strings,
 * so the labels staff see and the status names both work, in any case and spacing
 * ("Awaiting Response", "awaitingGovt", "Delete").
 */
const STATUS_ALIASES: Readonly<Record<string, OrderStatus>> = {
  new: "New",
  priority: "Priority",
  pending: "Pending",
  awaiting: "Awaiting",
  awaitingresponse: "Awaiting",
  awaitingcustomer: "Awaiting",
  awaitinggovt: "AwaitingGovt",
  awaitinggovernment: "AwaitingGovt",
  contactcustomer: "ContactCustomer",
  customercalled: "CustomerCalled",
  called: "CustomerCalled",
  completed: "Completed",
  completedorders: "Completed",
  refund: "Refund",
  refunds: "Refund",
  completedrefund: "CompletedRefund",
  completedrefunds: "CompletedRefund",
  chargeback: "ChargeBack",
  deleted: "Deleted",
  delete: "Deleted",
};

/** The status a client's `updatingStatus` names, if any. */
export const statusOf = (text: string): OrderStatus | undefined => STATUS_ALIASES[text.toLowerCase().replace(/[\s_-]/g, "")];
