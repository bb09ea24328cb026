/*
 * The order folders as the client asks for them (000 §4 queue keys), the counts object of the
 * side menu (000 §3, SHELL-5) and the lists' paging limits (000 §9). Which orders a folder holds
 * is the queue read model's business (projections/src/queue/queue-folders.ts).
 */

export const QUEUE_KEYS = [
  "newOrder",
  "priorityOrder",
  "pendingOrder",
  "completedOrder",
  "deletedOrder",
  "awaitingOrder",
  "awaitingGovtOrder",
  "customerCalledOrder",
  "allOrder",
  "contactCustomerOrder",
  "refundOrder",
  "futureOrder",
  "myOrder",
  "chargeBack",
] as const;
export type QueueKey = (typeof QUEUE_KEYS)[number];

/** The counts object of 000 §3, field for field, in the spec's order. */
export interface FolderCounts {
  readonly myOrdersCount: number;
  readonly newOrdersCount: number;
  readonly priorityOrdersCount: number;
  readonly pendingOrdersCount: number;
  readonly completedOrdersCount: number;
  readonly awaitingOrdersCount: number;
  readonly awaitingGovtCount: number;
  readonly futureOrdersCount: number;
  readonly contactCustomerOrdersCount: number;
  readonly customerCalledCount: number;
  readonly deletedOrdersCount: number;
  readonly allOrdersCount: number;
  readonly refundOrdersCount: number;
  readonly chargeBack: number;
}

/** Which field of the counts object is a list's total (QUEUE-7). */
export const COUNT_FIELD_OF: { readonly [K in QueueKey]: keyof FolderCounts } = {
  newOrder: "newOrdersCount",
  priorityOrder: "priorityOrdersCount",
  pendingOrder: "pendingOrdersCount",
  completedOrder: "completedOrdersCount",
  deletedOrder: "deletedOrdersCount",
  awaitingOrder: "awaitingOrdersCount",
  awaitingGovtOrder: "awaitingGovtCount",
  customerCalledOrder: "customerCalledCount",
  allOrder: "allOrdersCount",
  contactCustomerOrder: "contactCustomerOrdersCount",
  refundOrder: "refundOrdersCount",
  futureOrder: "futureOrdersCount",
  myOrder: "myOrdersCount",
  chargeBack: "chargeBack",
};

/** The largest page the lists offer (000 §9); "All" asks for every row. */
export const MAX_PAGE_SIZE = 500;
/** Rows per page when a list call names none. */
export const DEFAULT_PAGE_SIZE = 10;
/** The longest search the server takes. */
export const MAX_SEARCH_LENGTH = 200;
/** Rows per page: 1 to MAX_PAGE_SIZE, or every row. */
export type PageSize = number | "All";

/**
 * Select all across pages (issue 16): the most orders one selection, and so one bulk action,
 * holds; the refusal of more is also what select-all-orders declares it answers.
 */
export const MAX_SELECTED_ORDERS = 5_000;
export const TOO_MANY_SELECTED_MESSAGE = "At most 5,000 orders can be selected at once. Please narrow the search.";

/** A member's CSV exports (issue 16 D) run a few at a time: the refusal of one more, which the exports also declare. */
export const EXPORT_RUNNING = "Your other exports are still running. Please wait for one to finish.";
