import type { GatewayId, OrderId } from "@etd/events";

/*
 * Commands on one year's invoice register, `invoices-{year}` (ADMIN-6). The route decides the
 * year (the UTC year of issue) and the gateway (the active one of the order's landing domain);
 * the amount is the order's recorded payment.
 */

/** Give the order the next invoice number of `year`, unless that register has given it one. */
export interface IssueInvoiceNumber {
  readonly type: "IssueInvoiceNumber";
  readonly year: number;
  readonly orderId: OrderId;
  readonly gatewayId: GatewayId;
  readonly gatewayName: string;
  readonly amount: string;
  readonly currency: string;
}

export type InvoiceRegisterCommand = IssueInvoiceNumber;
