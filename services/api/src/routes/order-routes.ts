import { Result, Schema } from "effect";
import type { OrderId, OrderStatus } from "@etd/events";
import { isAllowed } from "../auth/permissions.ts";
import { FORBIDDEN, type Endpoint } from "../http/endpoint.ts";
import { flag, isTicked, orderIdField, orderIdList, requiredEmail, requiredText, toOrderId, toOrderIds, utcDay } from "../http/fields.ts";
import { decodeInput, fail } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { replyTo, runForEachOrder, runOrderCommand } from "../commands/run-command.ts";

/*
 * The order commands of 000 §7 and 001 §7, at the paths the existing client calls. Where the specs
 * do not show a payload, the choice is recorded in docs/decisions/0003-command-api.md.
 */

/**
 * 000 §4 does not show the status strings the client sends, so the labels staff see and the
 * status names both work, in any case and spacing ("Awaiting Response", "awaitingGovt", "Delete").
 */
const STATUS_ALIASES: Record<string, OrderStatus> = {
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

const statusOf = (text: string): OrderStatus | undefined => STATUS_ALIASES[text.toLowerCase().replace(/[\s_-]/g, "")];

const MailProviderField = Schema.optionalKey(
  Schema.String.check(
    Schema.makeFilter((s: string) => /^(aws|sendgrid)$/i.test(s.trim()) || "Please choose AWS or Sendgrid as the mail provider."),
  ),
);
/** CROSS-4: AWS unless the client names Sendgrid. */
const providerOf = (value: string | undefined) => (value?.trim().toLowerCase() === "sendgrid" ? "Sendgrid" : "AWS");

export const ChangeOrderStatusRequest = Schema.Struct({
  orderId: orderIdList,
  updatingStatus: Schema.String.check(
    Schema.makeFilter((s: string) => statusOf(s) !== undefined || "Please choose a valid status."),
  ).pipe(Schema.annotateKey({ messageMissingKey: "Please choose a valid status." })),
  permanentDeletedFlag: Schema.optionalKey(Schema.Union([Schema.Boolean, Schema.Literals(["true", "false", 0, 1])])),
});

export const AssignOrderRequest = Schema.Struct({
  orderId: orderIdList,
  /** The client sends the signed-in user's name; the server assigns to the signed-in user whatever it says. */
  assignto: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number, Schema.Null])),
});

export const OrderIdsRequest = Schema.Struct({ orderId: orderIdList });

export const AddRemarkRequest = Schema.Struct({
  orderId: orderIdField(),
  remark: requiredText("Please enter your remark", 5000),
  remarkerName: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
  whatsapp: flag,
  telephone: flag,
  statusRefund: flag,
  voided: flag,
  chargeBack: flag,
  reportError: flag,
});

export const ResendMailRequest = Schema.Struct({
  orderId: orderIdField(),
  email: requiredEmail("Please enter your email", "Please enter a valid email."),
  mailServiceProvider: MailProviderField,
});

export const SendInvoiceRequest = Schema.Struct({
  orderId: orderIdField(),
  email: Schema.optionalKey(requiredEmail("Please enter your email", "Please enter a valid email.")),
  mailServiceProvider: MailProviderField,
});

export const TransactionDetailsRequest = Schema.Struct({
  orderId: orderIdField(),
  transactionId: requiredText("Please enter your Transaction Id", 200),
  merchantName: requiredText("Please enter your Merchant Name", 200),
});

const isTrue = (value: boolean | string | number | undefined) => value === true || value === "true" || value === 1;

export const orderEndpoints = (deps: ApiDeps): Endpoint[] => [
  {
    method: "put",
    path: "/admin/change-order-status",
    guard: "order.change-status",
    summary: "Move orders to a status; Deleted is a soft delete, permanentDeletedFlag erases personal data (QUEUE-8, ORDER-11)",
    body: ChangeOrderStatusRequest,
    handle: async (context) => {
      const input = decodeInput(ChangeOrderStatusRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const to = statusOf(input.success.updatingStatus)!;
      const permanentDelete = isTrue(input.success.permanentDeletedFlag);
      const role = context.user!.type;
      if ((to === "Deleted" && !isAllowed(role, "order.delete")) || (permanentDelete && !isAllowed(role, "order.delete-permanently"))) {
        return fail(403, permanentDelete ? "Only an Admin can delete an order permanently." : FORBIDDEN);
      }
      const actor = { id: context.user!.id, name: context.user!.name, role };
      return runForEachOrder(
        toOrderIds(input.success.orderId),
        // A permanent delete only records the decision; the erasure reactor destroys the key and
        // the files once the event is in the log (reactors/erasure.ts).
        (orderId: OrderId) => runOrderCommand(deps, context, { type: "ChangeOrderStatus", orderId, to, actor, permanentDelete }),
        to === "Deleted" ? "Order has been deleted successfully" : "Order status has been updated successfully",
      );
    },
  },
  {
    method: "put",
    path: "/admin/assign-order-status",
    guard: "order.claim",
    summary: "Assign to me: the orders become Pending and the caller's (QUEUE-9); a lost race names the winner",
    body: AssignOrderRequest,
    handle: async (context) => {
      const input = decodeInput(AssignOrderRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const assignee = { id: context.user!.id, name: context.user!.name };
      return runForEachOrder(
        toOrderIds(input.success.orderId),
        (orderId) => runOrderCommand(deps, context, { type: "ClaimOrder", orderId, assignee, now: deps.now().toISOString() }),
        "Order has been assigned successfully",
      );
    },
  },
  {
    method: "put",
    path: "/admin/move-order-status",
    guard: "order.move-to-original",
    summary: "Move to Original Folder: assignment cleared, back to New or Priority (QUEUE-10)",
    body: OrderIdsRequest,
    handle: async (context) => {
      const input = decodeInput(OrderIdsRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      return runForEachOrder(
        toOrderIds(input.success.orderId),
        (orderId) => runOrderCommand(deps, context, { type: "MoveOrderToOriginalFolder", orderId }),
        "Order has been moved to new orders successfully",
      );
    },
  },
  {
    method: "put",
    path: "/admin/move-to-complete-refund",
    guard: "order.refunded",
    summary: "Refunded it: Refund → Completed Refund (QUEUE-11)",
    body: OrderIdsRequest,
    handle: async (context) => {
      const input = decodeInput(OrderIdsRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      return runForEachOrder(
        toOrderIds(input.success.orderId),
        (orderId) => runOrderCommand(deps, context, { type: "MarkOrderRefunded", orderId }),
        "Order has been refunded successfully",
      );
    },
  },
  {
    method: "post",
    path: "/admin/add-new-remark",
    guard: "order.remark",
    summary: "Add a comment with flags; Refund and Chargeback flags move the order (ORDER-10)",
    body: AddRemarkRequest,
    handle: async (context) => {
      const input = decodeInput(AddRemarkRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const body = input.success;
      const ran = await runOrderCommand(deps, context, {
        type: "AddRemark",
        orderId: toOrderId(body.orderId),
        remark: body.remark.trim(),
        // The team column shows who wrote it: the signed-in member, whatever the form says.
        remarkerName: context.user!.name,
        whatsapp: isTicked(body.whatsapp),
        telephone: isTicked(body.telephone),
        statusRefund: isTicked(body.statusRefund),
        voided: isTicked(body.voided),
        chargeBack: isTicked(body.chargeBack),
        reportError: isTicked(body.reportError),
        today: utcDay(deps.now()),
      });
      return replyTo(ran, "Remark has been added successfully");
    },
  },
  {
    method: "post",
    path: "/admin/resend-mail",
    guard: "order.mail",
    summary: "Resend the current document by mail through the chosen provider (ORDER-2)",
    body: ResendMailRequest,
    handle: async (context) => {
      const input = decodeInput(ResendMailRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const ran = await runOrderCommand(deps, context, {
        type: "ResendDocumentMail",
        orderId: toOrderId(input.success.orderId),
        provider: providerOf(input.success.mailServiceProvider),
        to: input.success.email.trim(),
      });
      return replyTo(ran, "Mail has been queued for sending");
    },
  },
  {
    method: "post",
    path: "/admin/send-reminder-mail",
    guard: "order.mail",
    summary: "Sent Mail under Download History: a reminder to download the document (ORDER-8)",
    body: ResendMailRequest,
    handle: async (context) => {
      const input = decodeInput(ResendMailRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const ran = await runOrderCommand(deps, context, {
        type: "SendReminderMail",
        orderId: toOrderId(input.success.orderId),
        provider: providerOf(input.success.mailServiceProvider),
        to: input.success.email.trim(),
      });
      return replyTo(ran, "Reminder mail has been queued for sending");
    },
  },
  {
    method: "post",
    path: "/admin/send-invoice",
    guard: "order.invoice",
    summary: "E-mail the order's invoice to the customer (ADMIN-6)",
    body: SendInvoiceRequest,
    handle: async (context) => {
      const input = decodeInput(SendInvoiceRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const ran = await runOrderCommand(deps, context, {
        type: "SendInvoice",
        orderId: toOrderId(input.success.orderId),
        provider: providerOf(input.success.mailServiceProvider),
        ...(input.success.email ? { to: input.success.email.trim() } : {}),
      });
      return replyTo(ran, "Invoice has been sent successfully");
    },
  },
  {
    method: "post",
    path: "/admin/save-transaction-details",
    guard: "order.transaction-details",
    summary: "Record the payment's transaction id and merchant name (ORDER-13)",
    body: TransactionDetailsRequest,
    handle: async (context) => {
      const input = decodeInput(TransactionDetailsRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const ran = await runOrderCommand(deps, context, {
        type: "RecordTransactionDetails",
        orderId: toOrderId(input.success.orderId),
        transactionId: input.success.transactionId.trim(),
        merchantName: input.success.merchantName.trim(),
      });
      return replyTo(ran, "Transaction details have been saved successfully");
    },
  },
];
