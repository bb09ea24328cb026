import { BRANDS } from "@etd/contract";
import { providerOf, toOrderId, type SendInvoiceRequest } from "@etd/contract/requests";
import { GATEWAYS_STREAM, orderStream, type IsoDateTime, type OrderInvoice } from "@etd/events";
import {
  activeGatewayFor,
  decideOrder,
  gatewayDecider,
  isRefusal,
  issueInvoiceNumber,
  loadStream,
  orderDecider,
  type OrderState,
  type SendInvoice,
} from "@etd/write";
import { requestMetadata, type ApiDeps, type Caller } from "../api-deps.ts";
import type { SessionUser } from "../auth/tokens.ts";
import { actorOf, refusalReply, replyTo, runOrderCommand } from "../commands/run-command.ts";

/*
 * POST /admin/send-invoice (ADMIN-6, 001 §2 Send Invoice): the request, messages and envelope are
 * the existing client's; the invoice behind them is ours (docs/decisions/0018-invoices.md).
 *
 * 1. The order decider is asked first: an order that cannot be invoiced (not found, permanently
 *    deleted, no recorded payment, another address without the right) ends here, and no invoice
 *    number is spent on it.
 * 2. An order that has had an invoice sends the same one again (the decider reuses it).
 * 3. Otherwise the register of the current UTC year is given the active gateway of the order's
 *    site and issues the order its number (its decider refuses a site with no active gateway, and
 *    is gap-free and idempotent per order, so a retry after a failure here keeps the number); then
 *    SendInvoice records the InvoiceSent that the mail reactor renders and mails.
 */

type SendInvoiceInput = typeof SendInvoiceRequest.Type;

/** A number that is never recorded: it lets the decider weigh the command before one is issued. */
const standInInvoice = (state: OrderState, now: Date): OrderInvoice | undefined =>
  state.exists && state.payment !== undefined && state.invoice === undefined
    ? {
        number: "0000-000000",
        issuedAt: now.toISOString() as IsoDateTime,
        gatewayName: "pending",
        amount: state.payment.amount,
        currency: state.payment.currency,
      }
    : undefined;

export const sendInvoice = async (deps: ApiDeps, context: Caller & { readonly user: SessionUser }, input: SendInvoiceInput): Promise<ReturnType<typeof replyTo>> => {
  const { user } = context;
  const orderId = toOrderId(input.orderId);
  const command: SendInvoice = {
    type: "SendInvoice",
    orderId,
    provider: providerOf(input.mailServiceProvider),
    ...(input.email ? { to: input.email.trim() } : {}),
    actor: actorOf(user),
  };

  const { state } = await loadStream(deps.store, orderStream(orderId), orderDecider);
  const standIn = standInInvoice(state, deps.now());
  const decision = decideOrder(standIn === undefined ? command : { ...command, invoice: standIn }, state);
  if (isRefusal(decision)) return refusalReply(decision);
  // The decider accepted, so the order exists and has a payment.
  if (!state.exists || state.payment === undefined) throw new Error(`order ${orderId} was accepted for an invoice without a payment`);
  if (state.invoice !== undefined) return replyTo(await runOrderCommand(deps, context, command), "Invoice has been sent successfully");

  const gateways = await loadStream(deps.store, GATEWAYS_STREAM, gatewayDecider);
  const issued = await issueInvoiceNumber(
    deps.store,
    {
      // The invoice's year is the UTC year it is issued in.
      year: deps.now().getUTCFullYear(),
      orderId,
      gateway: activeGatewayFor(gateways.state, state.landingDomain),
      site: BRANDS[state.landingDomain].name,
      amount: state.payment.amount,
      currency: state.payment.currency,
    },
    { metadata: requestMetadata(context), now: deps.now },
  );
  if (!issued.ok) return refusalReply(issued.refusal);

  const ran = await runOrderCommand(deps, context, { ...command, invoice: issued.invoice });
  return replyTo(ran, "Invoice has been sent successfully");
};
