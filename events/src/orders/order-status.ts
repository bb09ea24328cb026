import { Schema } from "effect";

/**
 * An order's process status (DESIGN §4). Folders are computed from status, assignee and
 * processing date; they are not statuses. `Deleted` is a soft delete: moving the order to
 * another status undoes it.
 */
export const OrderStatus = Schema.Literals([
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
]);
export type OrderStatus = typeof OrderStatus.Type;

/**
 * Status values as staff read them: the menu's and the move buttons' wording (000 §2, 001 §2).
 * One map for every message, list and audit line that names a status.
 */
export const ORDER_STATUS_LABELS: { readonly [S in OrderStatus]: string } = {
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

export const statusLabel = (status: OrderStatus): string => ORDER_STATUS_LABELS[status];

/** What the customer paid for; decides whether a new order starts in `New` or `Priority`. */
export const ProcessingMode = Schema.Literals(["standard", "priority"]);
export type ProcessingMode = typeof ProcessingMode.Type;

/** The statuses an unassigned order waits in, one per processing mode. */
export const IntakeStatus = Schema.Literals(["New", "Priority"]);
export type IntakeStatus = typeof IntakeStatus.Type;

/** The mail adapters staff choose between (000 §9, CROSS-4); "AWS" is the default. */
export const MailProvider = Schema.Literals(["AWS", "Sendgrid"]);
export type MailProvider = typeof MailProvider.Type;
