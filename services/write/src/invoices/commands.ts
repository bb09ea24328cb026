import type { OrderId } from "@etd/events";
import type { Gateway } from "../gateways/gateway-state.ts";

/*
 * Commands on one year's invoice register, `invoices-{year}` (ADMIN-6). The caller gives the year
 * (the UTC year of issue), the active gateway of the order's landing domain as the gateways
 * stream has it, and the order's recorded payment; the register decides whether a number may be
 * issued and which.
 */

/** Give the order the next invoice number of `year`, unless that register has given it one. */
export interface IssueInvoiceNumber {
  readonly type: "IssueInvoiceNumber";
  readonly year: number;
  readonly orderId: OrderId;
  /** The active gateway of the order's site (ADMIN-2); undefined when nobody has chosen one. */
  readonly gateway: Gateway | undefined;
  /** The order's site as staff know it (its brand), named when it has no active gateway. */
  readonly site: string;
  readonly amount: string;
  readonly currency: string;
}

export type InvoiceRegisterCommand = IssueInvoiceNumber;
