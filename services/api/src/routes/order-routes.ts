import type { OrderId } from "@etd/events";
import { isAllowed, statusOf } from "@etd/contract";
import {
  isPermanentDelete,
  isTicked,
  providerOf,
  selectedOrdersOf,
  toOrderId,
  toOrderIds,
  toVersion,
  type OrderIdsRequest,
  type ResendMailRequest,
} from "@etd/contract/requests";
import type { BulkChangeAnswer } from "@etd/contract";
import { FORBIDDEN, type Handlers, type StaffRequest } from "../http/endpoint.ts";
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
  runAll: (orderIds: readonly OrderId[], expectedVersion: bigint | undefined) => Promise<Reply<BulkChangeAnswer>>,
): Promise<Reply<BulkChangeAnswer>> => {
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
const mailHandler =
  (deps: ApiDeps, type: "ResendDocumentMail" | "SendReminderMail", success: string) =>
  async (context: StaffRequest<typeof ResendMailRequest.Type>) => {
    const ran = await runOrderCommand(deps, context, {
      type,
      orderId: toOrderId(context.input.orderId),
      provider: providerOf(context.input.mailServiceProvider),
      to: context.input.email.trim(),
      actor: actorOf(context.user),
    });
    return replyTo(ran, success);
  };

/** The bulk moves of the queues that need nothing but the orders (QUEUE-10, QUEUE-11). */
const orderIdsHandler =
  (deps: ApiDeps, type: "MoveOrderToOriginalFolder" | "MarkOrderRefunded", success: string) =>
  async (context: StaffRequest<typeof OrderIdsRequest.Type>) => {
    const selected = asSelectedFor(context.input.asSelected);
    const actor = actorOf(context.user);
    return withOneOrderVersion(context.input, (orderIds, expectedVersion) =>
      runForEachOrder(
        orderIds,
        (orderId) => runOrderCommand(deps, context, { type, orderId, actor, ...selected(orderId) }, undefined, expectedVersion),
        success,
      ),
    );
  };

export const orderHandlers = (deps: ApiDeps) =>
  ({
    changeOrderStatus: async (context) => {
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
    assignOrders: async (context) => {
      const assignee = { id: context.user.id, name: context.user.name };
      const selected = asSelectedFor(context.input.asSelected);
      return runForEachOrder(
        toOrderIds(context.input.orderId),
        (orderId) => runOrderCommand(deps, context, { type: "AssignOrder", orderId, assignee, now: deps.now().toISOString(), ...selected(orderId) }),
        "Order has been assigned successfully",
      );
    },
    moveOrdersToOriginalFolder: orderIdsHandler(deps, "MoveOrderToOriginalFolder", "Order has been moved to new orders successfully"),
    markOrdersRefunded: orderIdsHandler(deps, "MarkOrderRefunded", "Order has been refunded successfully"),
    addRemark: async (context) => {
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
    resendMail: mailHandler(deps, "ResendDocumentMail", "Mail has been queued for sending"),
    sendReminderMail: mailHandler(deps, "SendReminderMail", "Reminder mail has been queued for sending"),
    // The order decider first, then a gap-free number from the year's register (invoice-routes.ts).
    sendInvoice: (context) => sendInvoice(deps, context, context.input),
    saveTransactionDetails: async (context) => {
      const ran = await runOrderCommand(deps, context, {
        type: "RecordTransactionDetails",
        orderId: toOrderId(context.input.orderId),
        transactionId: context.input.transactionId.trim(),
        merchantName: context.input.merchantName.trim(),
        actor: actorOf(context.user),
      });
      return replyTo(ran, "Transaction details have been saved successfully");
    },
  }) satisfies Partial<Handlers>;
