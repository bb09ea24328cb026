import type { BulkChangeAnswer } from "../answers.ts";
import type { ReadModel } from "../vocabulary.ts";
import { answer, endpoints, ORDER_COMMAND_ANSWERS } from "./declare.ts";

/** What a command on one order answers: the log position of its last event, for read-your-writes. */
export interface CommandAnswer {
  readonly position: string | null;
}

/**
 * Take next's answer (issue 27): the order now the caller's and why it was the one, or, with no
 * order waiting, both null (the message says so).
 */
export interface TakeNextAnswer {
  readonly orderId: string | null;
  /** "due in 35 min, the most urgent unassigned Priority order"; the same words are in OrderAssigned. */
  readonly reason: string | null;
  readonly position: string | null;
}

/** Take next's refusal at capacity: how many open orders the caller holds, against their capacity (set lower than that meanwhile, it is exceeded). */
export const atCapacityMessage = (open: number, capacity: number): string => {
  const orders = `${open} open ${open === 1 ? "order" : "orders"}`;
  return open > capacity
    ? `You have ${orders}, more than your capacity of ${capacity}. Finish ${open - capacity + 1} to take the next.`
    : `You have ${orders}, your capacity. Finish one to take the next.`;
};

/**
 * What a command that moves an order, or marks it, changes: the order's page, the queues' rows
 * and folder counts, and the reports that count orders by status and by who processed them.
 */
const MOVES_ORDERS = ["queue", "order_details", "reports"] as const satisfies readonly ReadModel[];

/** The commands on orders: the queues' bulk commands and the order page's. */
export const ORDERS = endpoints({
  changeOrderStatus: {
    method: "put",
    path: "/admin/change-order-status",
    guard: "order.change-status",
    summary: "Move orders to a status; Deleted is a soft delete, permanentDeletedFlag erases personal data (QUEUE-8, ORDER-11)",
    body: "ChangeOrderStatusRequest",
    changes: MOVES_ORDERS,
    data: answer<BulkChangeAnswer>(),
    answers: ORDER_COMMAND_ANSWERS,
  },
  assignOrders: {
    method: "put",
    path: "/admin/assign-order-status",
    guard: "order.assign",
    summary: "Assign to me: the orders become Pending and the caller's (QUEUE-9); a lost race names the winner",
    body: "AssignOrderRequest",
    changes: MOVES_ORDERS,
    data: answer<BulkChangeAnswer>(),
    answers: ORDER_COMMAND_ANSWERS,
  },
  takeNextOrder: {
    method: "post",
    path: "/admin/take-next-order",
    guard: "order.assign",
    summary:
      "Take next (issue 27): assigns the caller the most urgent unassigned New or Priority order (overdue first, then earliest due; Priority before Standard at the same due time; then the oldest paid) and says why; the reason is kept in OrderAssigned. Callers at the same moment each get a different order",
    changes: MOVES_ORDERS,
    data: answer<TakeNextAnswer>(),
    answers: { 409: "The caller holds as many open orders as their capacity: nothing changed" },
  },
  moveOrdersToOriginalFolder: {
    method: "put",
    path: "/admin/move-order-status",
    guard: "order.move-to-original",
    summary: "Move to Original Folder: assignment cleared, back to New or Priority (QUEUE-10)",
    body: "OrderIdsRequest",
    changes: MOVES_ORDERS,
    data: answer<BulkChangeAnswer>(),
    answers: ORDER_COMMAND_ANSWERS,
  },
  markOrdersRefunded: {
    method: "put",
    path: "/admin/move-to-complete-refund",
    guard: "order.refunded",
    summary: "Refunded it: Refund → Completed Refund (QUEUE-11)",
    body: "OrderIdsRequest",
    changes: MOVES_ORDERS,
    data: answer<BulkChangeAnswer>(),
    answers: ORDER_COMMAND_ANSWERS,
  },
  addRemark: {
    method: "post",
    path: "/admin/add-new-remark",
    guard: "order.remark",
    summary: "Add a comment with flags; Refund and Chargeback flags move the order (ORDER-10)",
    body: "AddRemarkRequest",
    // A comment alone changes only the page; its Refund and Chargeback flags move the order.
    changes: MOVES_ORDERS,
    data: answer<CommandAnswer>(),
    answers: ORDER_COMMAND_ANSWERS,
  },
  resendMail: {
    method: "post",
    path: "/admin/resend-mail",
    guard: "order.mail",
    summary: "Resend the current document by mail through the chosen provider (ORDER-2)",
    body: "ResendMailRequest",
    changes: ["order_details"],
    data: answer<CommandAnswer>(),
    answers: ORDER_COMMAND_ANSWERS,
  },
  sendReminderMail: {
    method: "post",
    path: "/admin/send-reminder-mail",
    guard: "order.mail",
    summary: "Sent Mail under Download History: a reminder to download the document (ORDER-8)",
    body: "ResendMailRequest",
    changes: ["order_details"],
    data: answer<CommandAnswer>(),
    answers: ORDER_COMMAND_ANSWERS,
  },
  sendInvoice: {
    method: "post",
    path: "/admin/send-invoice",
    // To the customer: any member, from its own screen. To another address: the actor's, under
    // QUEUE-12's read-only rule (the decider's).
    guard: "order.invoice",
    summary: "E-mail the order's invoice to the customer (ADMIN-6)",
    body: "SendInvoiceRequest",
    changes: ["order_details"],
    data: answer<CommandAnswer>(),
    answers: ORDER_COMMAND_ANSWERS,
  },
  saveTransactionDetails: {
    method: "post",
    path: "/admin/save-transaction-details",
    guard: "order.transaction-details",
    summary: "Record the payment's transaction id and merchant name (ORDER-13)",
    body: "TransactionDetailsRequest",
    changes: ["order_details"],
    data: answer<CommandAnswer>(),
    answers: ORDER_COMMAND_ANSWERS,
  },
});
