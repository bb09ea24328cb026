import { invoiceRegisterStream, type EventMetadata, type InvoiceEvent, type OrderInvoice } from "@etd/events";
import type { EventStore } from "@etd/event-store";
import { handleCommand, loadStream } from "../command-handler.ts";
import type { Refusal } from "../shared/refusal.ts";
import type { IssueInvoiceNumber } from "./commands.ts";
import { invoiceRegisterDecider } from "./decide-invoice-register.ts";
import { invoiceIssuedBy, issuedTo } from "./invoice-register-state.ts";

/*
 * Issues (or finds) an order's invoice number in one year's register. The handler appends at the
 * register's version and decides again after a lost race, so concurrent issues stay gap-free: each
 * lost race means another writer's number was appended, so with N writers at once the last one
 * succeeds by its Nth attempt, within the handler's limit for the few members who send invoices.
 */

export type IssueOutcome =
  | { readonly ok: true; readonly invoice: OrderInvoice; readonly position: string | undefined }
  | { readonly ok: false; readonly refusal: Refusal };

export const issueInvoiceNumber = async (
  store: EventStore,
  command: Omit<IssueInvoiceNumber, "type">,
  options: { readonly metadata: Omit<EventMetadata, "occurredAt">; readonly now?: () => Date },
): Promise<IssueOutcome> => {
  const streamId = invoiceRegisterStream(command.year);
  const outcome = await handleCommand(invoiceRegisterDecider, { type: "IssueInvoiceNumber", ...command }, { store, streamId, ...options });
  if (!outcome.ok) return outcome;
  // Issued now: the appended event is the invoice. Issued earlier (nothing appended): the register has it.
  const [appended] = outcome.events as readonly InvoiceEvent[];
  const invoice = appended === undefined ? issuedTo((await loadStream(store, streamId, invoiceRegisterDecider)).state, command.orderId) : invoiceIssuedBy(appended);
  if (invoice === undefined) throw new Error(`The invoice register of ${String(command.year)} holds no number for order ${command.orderId} after issuing one.`);
  return { ok: true, invoice, position: outcome.position };
};
