import { BRANDS, PROCESSING_MODE_LABELS, usEastern } from "@etd/contract";
import { isErased, type InvoiceSent, type OrderEvent, type OrderPlaced } from "@etd/events";
import { easternDateTime } from "./eastern-time.ts";
import { escapeHtml, fieldTable, personName } from "./html.ts";
import type { PdfRenderer } from "@etd/pdf";

/*
 * The invoice (ADMIN-6) as HTML for the PDF renderer, from the order's events and the InvoiceSent
 * that mails it. Pure and clock-free: everything it shows comes from those events (the number,
 * the date and the gateway were fixed when the number was issued), so the same order gives the
 * same invoice any day, however often it is sent again (DESIGN §8).
 *
 * The brand is the order's landing domain's (PUBLIC-3): customers know the brand, not us.
 */

export interface InvoiceInput {
  /** "2026-000042". */
  readonly invoiceNumber: string;
  /** When the number was issued (UTC); shown as the US Eastern day. */
  readonly issuedAt: string;
  readonly orderId: string;
  /** Null once the order's personal data is erased. */
  readonly customerName: string | null;
  readonly processingMode: string;
  readonly amount: string;
  readonly currency: string;
  readonly gatewayName: string;
  readonly brand: { readonly name: string; readonly site: string };
}

/** The order's events do not make an invoice: a bug or an event recorded before invoices were numbered. */
export class InvoiceUnavailable extends Error {
  override readonly name = "InvoiceUnavailable";
}

const fullName = (placed: OrderPlaced): string | null => {
  const { personal } = placed.data;
  if (isErased(personal)) return null;
  return personName(personal) || null;
};

/** What the invoice shows, read from the order's events up to (and with) its InvoiceSent. */
export const invoiceInput = (orderEvents: readonly OrderEvent[], invoiceSent: InvoiceSent): InvoiceInput => {
  const placed = orderEvents.find((event): event is OrderPlaced => event.type === "OrderPlaced");
  if (placed === undefined) throw new InvoiceUnavailable(`Order ${invoiceSent.data.orderId} has no OrderPlaced event to invoice.`);
  const { invoice } = invoiceSent.data;
  if (invoice === undefined) {
    throw new InvoiceUnavailable(`The invoice mail of order ${invoiceSent.data.orderId} was recorded before invoices were numbered; it has no invoice to render.`);
  }
  const brand = BRANDS[placed.data.landingDomain];
  return {
    invoiceNumber: invoice.number,
    issuedAt: invoice.issuedAt,
    orderId: placed.data.orderId,
    customerName: fullName(placed),
    processingMode: PROCESSING_MODE_LABELS[placed.data.processingMode],
    amount: invoice.amount,
    currency: invoice.currency,
    gatewayName: invoice.gatewayName,
    brand: { name: brand.name, site: brand.mailDomain },
  };
};

const STYLE = `
  @page { size: A4; margin: 18mm 16mm; }
  * { box-sizing: border-box; }
  body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10pt; color: #1a1a1a; margin: 0; }
  header { display: flex; justify-content: space-between; align-items: flex-end; border-bottom: 2px solid #1d3557; padding-bottom: 8pt; margin-bottom: 14pt; }
  .brand { font-size: 15pt; font-weight: 700; color: #1d3557; margin: 0; }
  .site { color: #555; margin: 2pt 0 0; }
  h1 { font-size: 20pt; margin: 0; color: #1d3557; letter-spacing: 1pt; }
  h2 { font-size: 11pt; margin: 16pt 0 5pt; color: #1d3557; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; vertical-align: top; padding: 4pt 6pt; border: 1px solid #d5dbe3; }
  td { overflow-wrap: break-word; }
  table.fields th { width: 32%; background: #f1f4f8; font-weight: 600; }
  table.lines thead th { background: #1d3557; color: #fff; font-weight: 600; }
  table.lines td.amount, table.lines th.amount { text-align: right; white-space: nowrap; }
  table.lines tfoot td { font-weight: 700; background: #f1f4f8; }
  .paid { margin-top: 10pt; padding: 6pt 8pt; background: #eef7ee; border: 1px solid #9ccc9c; }
  footer { margin-top: 18pt; color: #777; font-size: 8pt; border-top: 1px solid #d5dbe3; padding-top: 4pt; }
`;

/** The invoice's HTML document; every value escaped, all styling inline. */
export const invoiceHtml = (input: InvoiceInput): string => {
  const issuedOn = usEastern(input.issuedAt).date;
  const money = `${input.amount} ${input.currency}`;
  const title = `Invoice ${input.invoiceNumber} (order ${input.orderId})`;
  return [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>`,
    `<header><div><p class="brand">${escapeHtml(input.brand.name)}</p><p class="site">${escapeHtml(input.brand.site)}</p></div><h1>INVOICE</h1></header>`,
    fieldTable([
      ["Invoice number", input.invoiceNumber],
      ["Invoice date", issuedOn],
      ["Order ID", input.orderId],
      ["Billed to", input.customerName],
    ]),
    `<h2>Service</h2>`,
    `<table class="lines"><thead><tr><th>Description</th><th class="amount">Amount</th></tr></thead>`,
    `<tbody><tr><td>Electronic Travel Declaration, ${escapeHtml(input.processingMode)}, order ${escapeHtml(input.orderId)}</td><td class="amount">${escapeHtml(money)}</td></tr></tbody>`,
    `<tfoot><tr><td>Total paid</td><td class="amount">${escapeHtml(money)}</td></tr></tfoot></table>`,
    `<p class="paid">Paid in full through ${escapeHtml(input.gatewayName)}.</p>`,
    `<footer>${escapeHtml(input.brand.name)} · ${escapeHtml(input.brand.site)} · Invoice ${escapeHtml(input.invoiceNumber)} issued ${escapeHtml(easternDateTime(input.issuedAt))}. Times are US Eastern (ET).</footer>`,
    "</body></html>",
  ].join("\n");
};

/**
 * The invoice PDF the mail reactor attaches to an InvoiceSent's mail. `orderEvents` are the
 * order's decoded events up to the InvoiceSent; rejects with InvoiceUnavailable when they hold no
 * invoice, and with PdfUnavailable when this server cannot render.
 */
export const renderInvoicePdf = async (pdf: PdfRenderer, orderEvents: readonly OrderEvent[], invoiceSent: InvoiceSent): Promise<Buffer> =>
  pdf.render(invoiceHtml(invoiceInput(orderEvents, invoiceSent)));
