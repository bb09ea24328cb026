import type { BulkChangeAnswer } from "../answers.ts";
import type { ReadModel } from "../vocabulary.ts";
import { answer, endpoints, ORDER_COMMAND_ANSWERS } from "./declare.ts";

/** What a command on one order answers: the log position of its last event, for read-your-writes. */
export interface CommandAnswer {
  readonly position: string | null;
}

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
