import { formatInvoiceNumber, type InvoiceEvent, type IsoDateTime, type OrderId } from "@etd/events";

/** A number the register gave an order, with what the invoice states. */
export interface IssuedInvoiceNumber {
  readonly year: number;
  readonly number: number;
  /** "2026-000042": the number as the invoice prints it. */
  readonly formatted: string;
  readonly issuedAt: IsoDateTime;
  readonly gatewayName: string;
  readonly amount: string;
  readonly currency: string;
}

/** One year's register: how many numbers it has given, and to which orders. */
export interface InvoiceRegisterState {
  /** The register's year, once it has given a number. */
  readonly year: number | undefined;
  /** The last number given; the next one is `issued + 1`, so numbers have no gap. */
  readonly issued: number;
  readonly byOrder: ReadonlyMap<OrderId, IssuedInvoiceNumber>;
}

export const initialInvoiceRegisterState: InvoiceRegisterState = { year: undefined, issued: 0, byOrder: new Map() };

export const evolveInvoiceRegister = (state: InvoiceRegisterState, event: InvoiceEvent): InvoiceRegisterState => {
  const { data, metadata } = event;
  const byOrder = new Map(state.byOrder);
  byOrder.set(data.orderId, {
    year: data.year,
    number: data.number,
    formatted: formatInvoiceNumber(data.year, data.number),
    issuedAt: metadata.occurredAt,
    gatewayName: data.gatewayName,
    amount: data.amount,
    currency: data.currency,
  });
  return { year: data.year, issued: Math.max(state.issued, data.number), byOrder };
};

/** The number `orderId` was given in this register, if any. */
export const issuedTo = (state: InvoiceRegisterState, orderId: OrderId): IssuedInvoiceNumber | undefined => state.byOrder.get(orderId);
