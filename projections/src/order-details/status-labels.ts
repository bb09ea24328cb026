import type { OrderStatus, ProcessingMode } from "@etd/events";

/*
 * Words staff read on the detail page and in the audit timeline. The write side has its own copy
 * for refusal messages; the read side keeps one so that it depends on the catalogue only.
 */

/** Status values as the menu and the move buttons name them (000 §2, 001 §2). */
export const STATUS_LABELS: { readonly [S in OrderStatus]: string } = {
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

export const statusLabel = (status: OrderStatus): string => STATUS_LABELS[status];

/** ORDER-4: the site's "Regular Processing" is shown as "Standard Processing". */
export const PROCESSING_MODE_LABELS = {
  standard: "Standard Processing",
  priority: "Priority Processing",
} as const satisfies { readonly [M in ProcessingMode]: string };

export type ProcessingModeLabel = (typeof PROCESSING_MODE_LABELS)[ProcessingMode];
