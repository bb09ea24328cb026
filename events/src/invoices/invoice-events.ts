import * as Schema from "effect/Schema";
import { defineEvent } from "../shared/event-definition.ts";
import { GatewayId, OrderId } from "../shared/ids.ts";
import { IsoDateTime, NonEmptyText } from "../shared/primitives.ts";

/*
 * Invoices (ADMIN-6). What the customer paid is recorded on OrderPlaced (`payment`); an invoice
 * number is issued once per order from a register stream per calendar year, `invoices-{year}`
 * (`invoiceRegisterStream`), so that numbers run 1, 2, 3 … with no gap and no duplicate: each
 * number is appended at the register's expected version, and a writer that lost the race decides
 * again on the longer register. None of this is personal data.
 */

/** An amount of money as a decimal string with two places, e.g. "49.00" (never a float). */
export const MoneyAmount = Schema.String.check(
  Schema.isPattern(/^\d{1,12}\.\d{2}$/, { message: 'must be an amount with two decimals, like "49.00"' }),
);
export type MoneyAmount = typeof MoneyAmount.Type;

/** An ISO 4217 currency code, e.g. "USD". */
export const CurrencyCode = Schema.String.check(
  Schema.isPattern(/^[A-Z]{3}$/, { message: 'must be a three-letter ISO 4217 currency code, like "USD"' }),
);
export type CurrencyCode = typeof CurrencyCode.Type;

/** What the customer paid for the order, as the customer-facing site reported it. */
export const Payment = Schema.Struct({ amount: MoneyAmount, currency: CurrencyCode });
export type Payment = typeof Payment.Type;

/** True when an amount and currency are a payment an invoice can state (the deciders' check). */
export const isPayment: (value: unknown) => value is Payment = Schema.is(Payment);

/** The calendar year of a register (the UTC year the number was issued in). */
export const InvoiceYear = Schema.Int.check(Schema.isBetween({ minimum: 2000, maximum: 9999 }));

/** The register of `year` gave `orderId` its invoice number `number` (1, 2, 3 … per year). */
export const InvoiceNumberIssued = defineEvent(
  "InvoiceNumberIssued",
  1,
  Schema.Struct({
    year: InvoiceYear,
    number: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1, { message: "invoice numbers count from 1" })),
    orderId: OrderId,
    /** The active gateway of the order's landing domain when the number was issued. */
    gatewayId: GatewayId,
    gatewayName: NonEmptyText,
    amount: MoneyAmount,
    currency: CurrencyCode,
  }),
);
export type InvoiceNumberIssued = typeof InvoiceNumberIssued.schema.Type;

/** An invoice number as printed and mailed: the year and the number, "2026-000042". */
export const FormattedInvoiceNumber = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{6,}$/, { message: 'must be an invoice number like "2026-000042"' }),
);

export const formatInvoiceNumber = (year: number, number: number): string => `${String(year)}-${String(number).padStart(6, "0")}`;

/**
 * The invoice an InvoiceSent mails: issued once per order and the same every time it is sent
 * again, whatever the day or year (the order keeps its first invoice).
 */
export const OrderInvoice = Schema.Struct({
  number: FormattedInvoiceNumber,
  /** When the number was issued: the invoice's date. */
  issuedAt: IsoDateTime,
  gatewayName: NonEmptyText,
  amount: MoneyAmount,
  currency: CurrencyCode,
});
export type OrderInvoice = typeof OrderInvoice.Type;

/** Events of the invoice registers, `invoices-{year}` (the catalogue reads this list). */
export const INVOICE_EVENTS = [InvoiceNumberIssued] as const;
