import type { OrderId } from "@etd/events";
import { isAllowed, statusOf } from "@etd/contract";
import {
  AddRemarkRequest,
  AssignOrderRequest,
  ChangeOrderStatusRequest,
  isPermanentDelete,
  isTicked,
  OrderIdsRequest,
  providerOf,
  ResendMailRequest,
  selectedOrdersOf,
  SendInvoiceRequest,
  toOrderId,
  toOrderIds,
  toVersion,
  TransactionDetailsRequest,
} from "@etd/contract/requests";
import { FORBIDDEN, staffEndpoint, type Endpoint } from "../http/endpoint.ts";
import { ORDER_COMMAND_ANSWERS } from "../http/answers.ts";
import { utcDay } from "../http/fields.ts";
import { fail, type Reply } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { actorOf, replyTo, runForEachOrder, runOrderCommand } from "../commands/run-command.ts";
import { sendInvoice } from "./invoice-routes.ts";

/*
 * The order commands of 000 §7 and 001 §7, at the paths the existing client calls; their request
 * schemas are the contract's (@etd/contract/requests). Where the specs do not show a payload, the
 * choice is recorded in docs/decisions/0003-command-api.md.
 */

/**
 * The orders of an OrderIdsRequest and the page's version: a version belongs to one order, so
 * several ids with a version are refused before anything runs.
 */
const withOneOrderVersion = (
  input: { readonly orderId: Parameters<typeof toOrderIds>[0]; readonly expectedVersion?: number | string },
  runAll: (orderIds: readonly OrderId[], expectedVersion: bigint | undefined) => Promise<Reply>,
): Promise<Reply> => {
  const orderIds = toOrderIds(input.orderId);
  const expectedVersion = toVersion(input.expectedVersion);
  if (expectedVersion !== undefined && orderIds.length !== 1) return Promise.resolve(fail(400, "expectedVersion applies to one order."));
  return runAll(orderIds, expectedVersion);
};

/**
 * Select all across pages (issue 16): with `asSelected` (one entry per order id, checked by the
 * request's schema before anything runs) each order's command carries what the member saw of it,
 * and the order decider refuses an order that changed since. Without it, nothing is carried.
 */
const asSelectedFor = (asSelected: Parameters<typeof selectedOrdersOf>[0]) => {
  const selected = selectedOrdersOf(asSelected);
  return (orderId: OrderId) => {
    const seen = selected?.get(orderId);
    // In the command's words: the status and the assignee the member saw.
    return seen === undefined ? {} : { asSelected: { status: seen.process_status, assigneeId: seen.assign_to_id } };
  };
};

/** The mail commands of the order page: the document again (ORDER-2), or a reminder to download it (ORDER-8). */
const mailEndpoint = (
  deps: ApiDeps,
  declared: { readonly path: string; readonly summary: string; readonly type: "ResendDocumentMail" | "SendReminderMail"; readonly success: string },
): Endpoint =>
  staffEndpoint({
    method: "post",
    path: declared.path,
    guard: "order.mail",
    answers: ORDER_COMMAND_ANSWERS,
    summary: declared.summary,
    body: ResendMailRequest,
    handle: async (context) => {
      const ran = await runOrderCommand(deps, context, {
        type: declared.type,
        orderId: toOrderId(context.input.orderId),
        provider: providerOf(context.input.mailServiceProvider),
        to: context.input.email.trim(),
        actor: actorOf(context.user),
      });
      return replyTo(ran, declared.success);
    },
  });

/** The bulk moves of the queues that need nothing but the orders (QUEUE-10, QUEUE-11). */
const orderIdsEndpoint = (
  deps: ApiDeps,
  declared: {
    readonly path: string;
    readonly guard: "order.move-to-original" | "order.refunded";
    readonly summary: string;
    readonly type: "MoveOrderToOriginalFolder" | "MarkOrderRefunded";
    readonly success: string;
  },
): Endpoint =>
  staffEndpoint({
    method: "put",
    path: declared.path,
    guard: declared.guard,
    answers: ORDER_COMMAND_ANSWERS,
    summary: declared.summary,
    body: OrderIdsRequest,
    handle: async (context) => {
      const selected = asSelectedFor(context.input.asSelected);
      const actor = actorOf(context.user);
      return withOneOrderVersion(context.input, (orderIds, expectedVersion) =>
        runForEachOrder(
          orderIds,
          (orderId) => runOrderCommand(deps, context, { type: declared.type, orderId, actor, ...selected(orderId) }, undefined, expectedVersion),
          declared.success,
        ),
      );
    },
  });

export const orderEndpoints = (deps: ApiDeps): Endpoint[] => [
  staffEndpoint({
    method: "put",
    path: "/admin/change-order-status",
    guard: "order.change-status",
    answers: ORDER_COMMAND_ANSWERS,
    summary: "Move orders to a status; Deleted is a soft delete, permanentDeletedFlag erases personal data (QUEUE-8, ORDER-11)",
    body: ChangeOrderStatusRequest,
    handle: async (context) => {
      const { input, user } = context;
      const to = statusOf(input.updatingStatus);
      // The schema has checked that the status is one of the aliases.
      if (to === undefined) return fail(400, "Please choose a valid status.");
      const permanentDelete = isPermanentDelete(input.permanentDeletedFlag);
      if ((to === "Deleted" && !isAllowed(user.type, "order.delete")) || (permanentDelete && !isAllowed(user.type, "order.delete-permanently"))) {
        return fail(403, permanentDelete ? "Only an Admin can delete an order permanently." : FORBIDDEN);
      }
      const actor = actorOf(user);
      const selected = asSelectedFor(input.asSelected);
      return withOneOrderVersion(input, (orderIds, expectedVersion) =>
        runForEachOrder(
          orderIds,
          // A permanent delete only records the decision; the erasure reactor destroys the key and
          // the files once the event is in the log (reactors/erasure.ts).
          (orderId) => runOrderCommand(deps, context, { type: "ChangeStatus", orderId, to, actor, permanentDelete, ...selected(orderId) }, undefined, expectedVersion),
          to === "Deleted" ? "Order has been deleted successfully" : "Order status has been updated successfully",
        ),
      );
    },
  }),
  staffEndpoint({
    method: "put",
    path: "/admin/assign-order-status",
    guard: "order.assign",
    answers: ORDER_COMMAND_ANSWERS,
    summary: "Assign to me: the orders become Pending and the caller's (QUEUE-9); a lost race names the winner",
    body: AssignOrderRequest,
    handle: async (context) => {
      const assignee = { id: context.user.id, name: context.user.name };
      const selected = asSelectedFor(context.input.asSelected);
      return runForEachOrder(
        toOrderIds(context.input.orderId),
        (orderId) => runOrderCommand(deps, context, { type: "AssignOrder", orderId, assignee, now: deps.now().toISOString(), ...selected(orderId) }),
        "Order has been assigned successfully",
      );
    },
  }),
  orderIdsEndpoint(deps, {
    path: "/admin/move-order-status",
    guard: "order.move-to-original",
    summary: "Move to Original Folder: assignment cleared, back to New or Priority (QUEUE-10)",
    type: "MoveOrderToOriginalFolder",
    success: "Order has been moved to new orders successfully",
  }),
  orderIdsEndpoint(deps, {
    path: "/admin/move-to-complete-refund",
    guard: "order.refunded",
    summary: "Refunded it: Refund → Completed Refund (QUEUE-11)",
    type: "MarkOrderRefunded",
    success: "Order has been refunded successfully",
  }),
  staffEndpoint({
    method: "post",
    path: "/admin/add-new-remark",
    guard: "order.remark",
    answers: ORDER_COMMAND_ANSWERS,
    summary: "Add a comment with flags; Refund and Chargeback flags move the order (ORDER-10)",
    body: AddRemarkRequest,
    handle: async (context) => {
      const { input } = context;
      const flags = {
        whatsapp: isTicked(input.whatsapp),
        telephone: isTicked(input.telephone),
        statusRefund: isTicked(input.statusRefund),
        voided: isTicked(input.voided),
        chargeBack: isTicked(input.chargeBack),
        reportError: isTicked(input.reportError),
      };
      // A plain comment never conflicts: it changes nothing a colleague decided on, so it is
      // added whatever the page's version. A ticked flag acts on the order (Refund and Chargeback
      // move it, the others mark it): that is decisive, and checked against the version (ADR 0014).
      const decisive = Object.values(flags).some(Boolean);
      const ran = await runOrderCommand(deps, context, {
        type: "AddRemark",
        orderId: toOrderId(input.orderId),
        remark: input.remark.trim(),
        // The team column shows who wrote it: the signed-in member, whatever the form says.
        remarkerName: context.user.name,
        ...flags,
        today: utcDay(deps.now()),
        actor: actorOf(context.user),
      }, undefined, decisive ? toVersion(input.expectedVersion) : undefined);
      return replyTo(ran, "Remark has been added successfully");
    },
  }),
  mailEndpoint(deps, {
    path: "/admin/resend-mail",
    summary: "Resend the current document by mail through the chosen provider (ORDER-2)",
    type: "ResendDocumentMail",
    success: "Mail has been queued for sending",
  }),
  mailEndpoint(deps, {
    path: "/admin/send-reminder-mail",
    summary: "Sent Mail under Download History: a reminder to download the document (ORDER-8)",
    type: "SendReminderMail",
    success: "Reminder mail has been queued for sending",
  }),
  staffEndpoint({
    method: "post",
    path: "/admin/send-invoice",
    guard: "order.invoice",
    answers: ORDER_COMMAND_ANSWERS,
    summary: "E-mail the order's invoice to the customer (ADMIN-6)",
    // To the customer: any member, from its own screen. To another address: the actor's, under
    // QUEUE-12's read-only rule (the decider's).
    body: SendInvoiceRequest,
    // The order decider first, then a gap-free number from the year's register (invoice-routes.ts).
    handle: (context) => sendInvoice(deps, context, context.input),
  }),
  staffEndpoint({
    method: "post",
    path: "/admin/save-transaction-details",
    guard: "order.transaction-details",
    answers: ORDER_COMMAND_ANSWERS,
    summary: "Record the payment's transaction id and merchant name (ORDER-13)",
    body: TransactionDetailsRequest,
    handle: async (context) => {
      const ran = await runOrderCommand(deps, context, {
        type: "RecordTransactionDetails",
        orderId: toOrderId(context.input.orderId),
        transactionId: context.input.transactionId.trim(),
        merchantName: context.input.merchantName.trim(),
        actor: actorOf(context.user),
      });
      return replyTo(ran, "Transaction details have been saved successfully");
    },
  }),
];
