import { execFile } from "node:child_process";
import { promisify } from "node:util";
import * as Result from "effect/Result";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresAvailable } from "@etd/infra/test-database";
import { generateDemoOrders } from "@etd/demo";
import { decodeEvent, invoiceRegisterStream, type InvoiceSent, type OrderEvent } from "@etd/events";
import { chromiumInstalled, chromiumPath, createChromiumRenderer } from "@etd/pdf";
import { renderInvoicePdf } from "@etd/documents";
import type { PdfRenderer } from "@etd/pdf";
import { activateGateway } from "./support/gateways.ts";
import { INTAKE_TOKEN, startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * ADMIN-6 Send Invoice against a real API on a real PostgreSQL: gap-free invoice numbers per
 * year under concurrency, refusals that spend no number, the same invoice on every later send,
 * and the invoice PDF rendered by a real Chromium from the order's stored events.
 */

const available = await postgresAvailable();
const chromium = await chromiumInstalled();
if (available && !chromium) {
  console.warn(`\n*** ADMIN-6 invoice PDF tests SKIPPED: no Chromium at ${chromiumPath()} (set CHROMIUM_PATH). ***\n`);
}

const run = promisify(execFile);

/** The PDF's text as a reader (or a mail client's preview) sees it. */
const pdfText = async (pdf: Buffer): Promise<string> => {
  const child = run("pdftotext", ["-layout", "-", "-"], { encoding: "utf8", maxBuffer: 8 * 1024 * 1024 });
  child.child.stdin?.end(pdf);
  return (await child).stdout;
};

describe.skipIf(!available)("ADMIN-6 Send Invoice: invoice numbers, refusals, the same invoice again", () => {
  let api: TestApi;
  let admin: string;
  const year = new Date().getUTCFullYear();
  const register = () => api.runtime.deps.store.readStream(invoiceRegisterStream(year));
  const orderTypes = async (orderId: string) => (await api.runtime.deps.store.readStream(`order-${orderId}`)).map((e) => e.type);
  const invoicesSent = async (orderId: string) =>
    (await api.runtime.deps.store.readStream(`order-${orderId}`)).filter((e) => e.type === "InvoiceSent").map((e) => (e.data as InvoiceSent["data"]).invoice);

  /** One demo order through intake, with `changes` to its body. */
  const placeOrder = async (orderId: string, changes: Record<string, unknown> = {}) => {
    const [body] = generateDemoOrders({ seed: Number(orderId), count: 1, now: new Date() });
    const placed = await api.call("POST", "/intake/orders", { ...body, processing_date: new Date().toISOString().slice(0, 10), ...changes, order_id: orderId }, `Bearer ${INTAKE_TOKEN}`);
    if (placed.status !== 200) throw new Error(`placing ${orderId} failed: ${JSON.stringify(placed.body)}`);
    return orderId;
  };

  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.login("Admin");
    // The secondary site has no active gateway until the concurrency test sets one.
    await activateGateway(api, "Stripe", ["primary"]);
  });

  afterAll(async () => {
    await api?.close();
  });

  it("ADMIN-6: refuses an order with no recorded payment, a site with no active gateway, an erased order; no number is issued", async () => {
    const unpaid = await placeOrder("700000001", { landing_domain: "primary", payment_amount: null, payment_currency: null });
    const noGateway = await placeOrder("700000002", { landing_domain: "secondary" });
    const erased = await placeOrder("700000003", { landing_domain: "primary" });
    const deleted = await api.call("PUT", "/admin/change-order-status", { orderId: [erased], updatingStatus: "Deleted", permanentDeletedFlag: true }, admin);
    expect(deleted.body).toMatchObject({ status: 1 });

    const refusals = [
      [unpaid, 409, `Order ${unpaid} has no recorded payment, so no invoice can be issued.`],
      [noGateway, 409, `No payment gateway is active for eTravel Pass Philippines, the site of order ${noGateway}, so no invoice can be issued. Choose one under Gateway Setting.`],
      [erased, 409, `Order ${erased} was permanently deleted.`],
      ["700000099", 404, "Order 700000099 was not found."],
    ] as const;
    for (const [orderId, status, message] of refusals) {
      const before = await orderTypes(orderId);
      const answer = await api.call("POST", "/admin/send-invoice", { orderId }, admin);
      expect(answer, orderId).toMatchObject({ status, body: { status: 0, message } });
      // A refused command changes nothing: no InvoiceSent, and the year's register is untouched.
      expect(await orderTypes(orderId)).toEqual(before);
    }
    expect(await register()).toEqual([]);
  });

  it("ADMIN-6: 20 send-invoice calls for 20 orders at once get numbers 1 to 20, no gap, no duplicate", async () => {
    await activateGateway(api, "PayPal", ["secondary"]);
    const orderIds = await api.placeOrders(20, { firstId: 710_000_000 });
    const answers = await Promise.all(orderIds.map((orderId) => api.call("POST", "/admin/send-invoice", { orderId }, admin)));
    for (const answer of answers) expect(answer.body).toMatchObject({ status: 1, message: "Invoice has been sent successfully" });

    const issued = (await register()).map((e) => e.data as { number: number; orderId: string; year: number; gatewayName: string });
    expect(issued.map((i) => i.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(new Set(issued.map((i) => i.orderId))).toEqual(new Set(orderIds));
    // Each order's InvoiceSent carries the number the register gave it.
    for (const orderId of orderIds) {
      const number = issued.find((i) => i.orderId === orderId)!.number;
      const [invoice] = await invoicesSent(orderId);
      expect(invoice, orderId).toMatchObject({ number: `${String(year)}-${String(number).padStart(6, "0")}`, currency: "USD" });
      expect(["Stripe", "PayPal"]).toContain(invoice!.gatewayName);
    }
  });

  it("ADMIN-6: an order sent again, through the other provider, mails the same invoice; the register issues nothing new", async () => {
    const orderId = await placeOrder("720000001", { landing_domain: "primary", processing_mode: "Priority Processing", payment_amount: "79.00", payment_currency: "USD" });
    const first = await api.call("POST", "/admin/send-invoice", { orderId }, admin);
    expect(first.body).toMatchObject({ status: 1, message: "Invoice has been sent successfully" });
    const registered = (await register()).length;
    // The gateway changes in between: the invoice keeps the one it was issued with.
    await activateGateway(api, "Checkout.com", ["primary"]);
    const again = await api.call("POST", "/admin/send-invoice", { orderId, mailServiceProvider: "sendgrid" }, admin);
    expect(again.body).toMatchObject({ status: 1, message: "Invoice has been sent successfully" });

    const [one, two] = await invoicesSent(orderId);
    expect(one).toMatchObject({ amount: "79.00", currency: "USD", gatewayName: "Stripe" });
    expect(two).toEqual(one);
    expect((await register()).length).toBe(registered);
    await activateGateway(api, "Stripe", ["primary"]);
  });

  it("ADMIN-6, QUEUE-12: another address by a member for whom the order is read-only is refused and spends no number; the customer's own address is anyone's", async () => {
    const orderId = await placeOrder("700000010", { landing_domain: "primary" });
    const team = await api.login("Team");
    const telecaller = await api.login("Telecaller");
    expect((await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId] }, team)).body).toMatchObject({ status: 1 });
    const before = await orderTypes(orderId);
    const registered = (await register()).length;

    const elsewhere = await api.call("POST", "/admin/send-invoice", { orderId, email: "accounts@elsewhere.example" }, telecaller);
    expect(elsewhere).toMatchObject({
      status: 403,
      body: { status: 0, message: `Order ${orderId} is assigned to ${api.staff.Team.name}; only they, a Manager or an Admin can change it.` },
    });
    expect(await orderTypes(orderId)).toEqual(before);
    expect((await register()).length).toBe(registered);

    const toCustomer = await api.call("POST", "/admin/send-invoice", { orderId }, telecaller);
    expect(toCustomer.body).toMatchObject({ status: 1, message: "Invoice has been sent successfully" });
    expect((await register()).length).toBe(registered + 1);
  });

  it("ADMIN-6: a burst of 6 sends for one order all succeed with one number: the register issues it once, every mail carries it", async () => {
    const orderId = await placeOrder("700000020", { landing_domain: "primary" });
    const registered = (await register()).length;
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.call("POST", "/admin/send-invoice", { orderId }, admin)));
    for (const answer of answers) expect(answer.body).toMatchObject({ status: 1, message: "Invoice has been sent successfully" });

    const numbers = (await register()).slice(registered).map((e) => e.data as { number: number; orderId: string });
    expect(numbers).toEqual([expect.objectContaining({ number: registered + 1, orderId })]);
    const sent = await invoicesSent(orderId);
    expect(sent).toHaveLength(6);
    expect(new Set(sent.map((invoice) => JSON.stringify(invoice))).size).toBe(1);
    expect(sent[0]).toMatchObject({ number: `${String(year)}-${String(registered + 1).padStart(6, "0")}` });
  });

  describe.skipIf(!chromium)("the invoice PDF (Chromium)", () => {
    let pdf: PdfRenderer;
    beforeAll(() => {
      pdf = createChromiumRenderer();
    });
    afterAll(async () => {
      await pdf?.close();
    });

    it("ADMIN-6: pdftotext of the invoice has the order, amount, gateway, invoice number and customer; the same events give the same text", async () => {
      const orderId = await placeOrder("730000001", {
        landing_domain: "primary",
        processing_mode: "Regular Processing",
        first_name: "Evangelina",
        last_name: "Quisumbing",
        payment_amount: "49.00",
        payment_currency: "USD",
      });
      expect((await api.call("POST", "/admin/send-invoice", { orderId }, admin)).body).toMatchObject({ status: 1 });

      // The order's events as the mail reactor reads them: decoded, up to the InvoiceSent.
      const events = (await api.runtime.deps.store.readStream(`order-${orderId}`)).map((raw) => {
        const decoded = decodeEvent(raw);
        if (Result.isFailure(decoded)) throw decoded.failure;
        return decoded.success as OrderEvent;
      });
      const at = events.findIndex((e) => e.type === "InvoiceSent");
      const invoiceSent = events[at] as InvoiceSent;
      const history = events.slice(0, at + 1);
      const number = invoiceSent.data.invoice!.number;

      const text = await pdfText(await renderInvoicePdf(pdf, history, invoiceSent));
      for (const expected of [orderId, "49.00 USD", "Stripe", number, "Evangelina", "Quisumbing", "Standard Processing", "Philippines eTravel Declaration", "etd-primary.example"]) {
        expect(text, expected).toContain(expected);
      }
      expect(text).toMatch(/Invoice date\s+\d{2}\/\d{2}\/\d{4}/);
      // The renderer reuses its pages: another document in between leaves nothing behind.
      expect(await pdfText(await pdf.render("<!DOCTYPE html><p>Another document entirely</p>"))).not.toContain(orderId);
      const again = await pdfText(await renderInvoicePdf(pdf, history, invoiceSent));
      expect(again).toBe(text);
      expect(again).not.toContain("Another document");
    });
  });
});
