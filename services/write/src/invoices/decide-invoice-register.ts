import { isPayment, type InvoiceEvent, type WithoutMetadata } from "@etd/events";
import type { Decider, Decision } from "../shared/decider.ts";
import { refuse } from "../shared/refusal.ts";
import { trimmedText } from "../shared/validation.ts";
import type { InvoiceRegisterCommand } from "./commands.ts";
import { evolveInvoiceRegister, initialInvoiceRegisterState, type InvoiceRegisterState } from "./invoice-register-state.ts";

/*
 * The invoice register's rules (ADMIN-6): per calendar year, numbers 1, 2, 3 … with no gap and no
 * duplicate, one per order. The handler appends at the register's expected version, so two
 * members issuing at once cannot both take the same number: the one that lost the race is decided
 * again on the longer register and takes the next. An order the register already numbered gets
 * nothing new (a retried request, or a crash between issuing and sending): it keeps its number.
 */

export type NewInvoiceEvent = WithoutMetadata<InvoiceEvent>;
export type InvoiceRegisterDecision = Decision<NewInvoiceEvent>;

export const decideInvoiceRegister = (command: InvoiceRegisterCommand, state: InvoiceRegisterState): InvoiceRegisterDecision => {
  if (state.byOrder.has(command.orderId)) return [];
  if (!Number.isInteger(command.year) || command.year < 2000 || command.year > 9999) {
    return refuse("invalid", `${String(command.year)} is not a year an invoice can be issued in.`);
  }
  // Each year has its own register and its own numbers from 1.
  if (state.year !== undefined && state.year !== command.year) {
    return refuse("invalid", `This is the invoice register of ${String(state.year)}, not of ${String(command.year)}.`);
  }
  // An invoice names the gateway the customer paid through: the one active for the order's site.
  const { gateway } = command;
  if (gateway === undefined) {
    return refuse(
      "conflict",
      `No payment gateway is active for ${command.site}, the site of order ${command.orderId}, so no invoice can be issued. Choose one under Gateway Setting.`,
    );
  }
  const gatewayName = trimmedText(gateway.gatewayName);
  if (gatewayName === undefined) return refuse("invalid", "An invoice needs the name of the payment gateway.");
  if (!isPayment({ amount: command.amount, currency: command.currency })) {
    return refuse("invalid", `Order ${command.orderId}'s payment is not an amount and currency an invoice can state.`);
  }
  return [
    {
      type: "InvoiceNumberIssued",
      data: {
        year: command.year,
        number: state.issued + 1,
        orderId: command.orderId,
        gatewayId: gateway.gatewayId,
        gatewayName,
        amount: command.amount,
        currency: command.currency,
      },
    },
  ];
};

export const invoiceRegisterDecider: Decider<InvoiceRegisterCommand, InvoiceRegisterState, InvoiceEvent> = {
  initialState: initialInvoiceRegisterState,
  evolve: evolveInvoiceRegister,
  decide: decideInvoiceRegister,
};
