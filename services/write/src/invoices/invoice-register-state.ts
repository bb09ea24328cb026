import { formatInvoiceNumber, type InvoiceEvent, type OrderId, type OrderInvoice } from "@etd/events";

/** One year's register: how many numbers it has given, and to which orders. */
export interface InvoiceRegisterState {
  /** The register's year, once it has given a number. */
  readonly year: number | undefined;
  /** The last number given; the next one is `issued + 1`, so numbers have no gap. */
  readonly issued: number;
  /** Each numbered order's invoice, as its InvoiceSent states it. */
  readonly byOrder: ReadonlyMap<OrderId, OrderInvoice>;
}

export const initialInvoiceRegisterState: InvoiceRegisterState = { year: undefined, issued: 0, byOrder: new Map() };

/** The invoice a number stands for: the number as printed, its date (the issue), what it states. */
export const invoiceIssuedBy = ({ data, metadata }: InvoiceEvent): OrderInvoice => ({
  number: formatInvoiceNumber(data.year, data.number),
  issuedAt: metadata.occurredAt,
  gatewayName: data.gatewayName,
  amount: data.amount,
  currency: data.currency,
});

export const evolveInvoiceRegister = (state: InvoiceRegisterState, event: InvoiceEvent): InvoiceRegisterState => {
  const byOrder = new Map(state.byOrder);
  byOrder.set(event.data.orderId, invoiceIssuedBy(event));
  return { year: event.data.year, issued: Math.max(state.issued, event.data.number), byOrder };
};

/** The invoice `orderId` was given in this register, if any. */
export const issuedTo = (state: InvoiceRegisterState, orderId: OrderId): OrderInvoice | undefined => state.byOrder.get(orderId);
