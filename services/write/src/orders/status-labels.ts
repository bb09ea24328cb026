import type { OrderStatus } from "@etd/events";

/**
 * Status values as staff read them: the menu's and the move buttons' wording (000 §2, 001 §2),
 * used in every message that names a status.
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
