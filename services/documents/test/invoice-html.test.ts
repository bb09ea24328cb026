import { describe, expect, it } from "vitest";
import { IsoDate, IsoDateTime, OrderId, type InvoiceSent, type OrderPlaced } from "@etd/events";
import { invoiceHtml, invoiceInput, InvoiceUnavailable } from "../src/invoice.ts";

/*
 * ADMIN-6: the invoice's HTML, without a browser (the PDF itself is checked with pdftotext in
 * invoices.int.test.ts). Pure: the same events give the same HTML, whatever the clock says.
 */

const metadata = (occurredAt: string) => ({ actor: { kind: "system", name: "order-intake" }, correlationId: "req-1", occurredAt: IsoDateTime.make(occurredAt) }) as const;

const placed = (personal: OrderPlaced["data"]["personal"], landingDomain: "primary" | "secondary" = "secondary"): OrderPlaced => ({
  type: "OrderPlaced",
  data: {
    orderId: OrderId.make("100234"),
    processingMode: "priority",
    landingDomain,
    processingDate: IsoDate.make("2026-01-01"),
    createdAt: IsoDateTime.make("2026-01-01T02:00:00.000Z"),
    application: {},
    personal,
    payment: { amount: "79.00", currency: "USD" },
  },
  metadata: metadata("2026-01-01T02:00:01.000Z"),
});

const sent = (invoice: InvoiceSent["data"]["invoice"]): InvoiceSent => ({
  type: "InvoiceSent",
  data: { orderId: OrderId.make("100234"), provider: "AWS", personal: { to: "juan@example.com" }, ...(invoice ? { invoice } : {}) },
  metadata: metadata("2026-01-01T04:30:00.000Z"),
});

// 04:30 UTC on 1 January is still 31 December in New York: the invoice date is the Eastern day.
const INVOICE = { number: "2026-000042", issuedAt: IsoDateTime.make("2026-01-01T04:30:00.000Z"), gatewayName: "Pay<Pal>", amount: "79.00", currency: "USD" };
const TRAVELLER = { first_name: "Juan", middle_name: "Reyes", last_name: "<script>alert(1)</script>", email: "juan@example.com" } as OrderPlaced["data"]["personal"];

describe("ADMIN-6: the invoice's HTML", () => {
  it("shows the number, the Eastern date, the order, the customer, the mode, the amount, the gateway and the order's brand", () => {
    const html = invoiceHtml(invoiceInput([placed(TRAVELLER)], sent(INVOICE)));
    for (const text of ["2026-000042", "12/31/2025", "100234", "Juan Reyes", "Priority Processing", "79.00 USD", "eTravel Pass Philippines", "etd-secondary.example"]) {
      expect(html, text).toContain(text);
    }
    expect(html).not.toContain("Philippines eTravel Declaration");
  });

  it("escapes what travellers and staff typed: a name or gateway cannot inject markup", () => {
    const html = invoiceHtml(invoiceInput([placed(TRAVELLER)], sent(INVOICE)));
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Pay&lt;Pal&gt;");
  });

  it("bills a dash once the customer's personal data is erased", () => {
    const input = invoiceInput([placed({ erased: true })], sent(INVOICE));
    expect(input.customerName).toBeNull();
    expect(invoiceHtml(input)).toMatch(/Billed to<\/th><td>—<\/td>/);
  });

  it("is the same HTML for the same events, and refuses an InvoiceSent recorded before invoices were numbered", () => {
    expect(invoiceHtml(invoiceInput([placed(TRAVELLER)], sent(INVOICE)))).toBe(invoiceHtml(invoiceInput([placed(TRAVELLER)], sent(INVOICE))));
    expect(() => invoiceInput([placed(TRAVELLER)], sent(undefined))).toThrow(InvoiceUnavailable);
    expect(() => invoiceInput([], sent(INVOICE))).toThrow(InvoiceUnavailable);
  });
});
