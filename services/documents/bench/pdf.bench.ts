import * as Result from "effect/Result";
import { PROCESSING_MODE_LABELS } from "@etd/contract";
import { generateDemoOrders } from "@etd/demo";
import { IsoDateTime, isErased, type EventMetadata, type InvoiceSent, type OrderPlaced } from "@etd/events";
import { decodePlaceOrderRequest } from "@etd/write";
import { chromiumInstalled, chromiumPath, createChromiumRenderer } from "@etd/pdf";
import { defencePackHtml, type DefencePackType } from "../src/defence-pack.ts";
import type { DefencePackEvidence } from "../src/defence-pack-evidence.ts";
import { invoiceHtml, invoiceInput } from "../src/invoice.ts";

/*
 * P8: PDF rendering with a warm browser (DESIGN §8: one Chromium reused for every PDF). The
 * documents are built from a realistic order: a demo order as intake decodes it, its invoice as
 * Send Invoice records it, and its defence packs' evidence (a document, its mails, downloads and
 * comments) as the order page shows it. The renderer is the production one (the card's
 * `puppeteer`, the system's Chromium); it is warmed up first, then each kind is rendered
 * PDF_BENCH_RUNS times, interleaved so that all kinds share the machine's weather. Each sample is
 * one `render` call as the API makes it: a warm page taken, its document replaced, the PDF printed.
 *
 * The last line is `P8 pdf_median_ms=<ms>`, the median of all samples; goal ≤ 150.
 */

const RUNS = Number(process.env.PDF_BENCH_RUNS ?? 30);
const WARM_UP = Number(process.env.PDF_BENCH_WARM_UP ?? 3);

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const at = (iso: string) => IsoDateTime.make(iso);
const metadata = (occurredAt: string): EventMetadata => ({ actor: { kind: "system", name: "order-intake" }, correlationId: "bench-p8", occurredAt: at(occurredAt) });

/** A realistic order: the demo generator's, through intake's decoding, as its events. */
const realisticOrder = (): { placed: OrderPlaced; invoiceSent: InvoiceSent } => {
  const [body] = generateDemoOrders({ seed: 8, count: 1, now: new Date("2026-03-14T12:00:00.000Z") });
  const decoded = decodePlaceOrderRequest({ ...body, order_id: "100234" });
  if (Result.isFailure(decoded)) throw new Error(decoded.failure.message);
  const placed: OrderPlaced = { type: "OrderPlaced", data: decoded.success, metadata: metadata("2026-03-14T12:00:01.000Z") };
  const payment = placed.data.payment ?? { amount: "49.00", currency: "USD" };
  const to = isErased(placed.data.personal) ? "customer@example.com" : placed.data.personal.email;
  const invoiceSent: InvoiceSent = {
    type: "InvoiceSent",
    data: {
      orderId: placed.data.orderId,
      provider: "AWS",
      personal: { to },
      invoice: { number: "2026-000042", issuedAt: at("2026-03-15T14:05:00.000Z"), gatewayName: "Stripe", ...payment },
    },
    metadata: metadata("2026-03-15T14:05:01.000Z"),
  };
  return { placed, invoiceSent };
};

/** The packs' evidence for the same order: a working life of mails, downloads and comments. */
const evidenceOf = (placed: OrderPlaced): DefencePackEvidence => {
  const personal = isErased(placed.data.personal) ? undefined : placed.data.personal;
  const email = personal?.email ?? null;
  const file = `etravel-${placed.data.orderId}.pdf`;
  const hour = (h: number, m = 0) => `2026-03-14T${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:00.000Z`;
  return {
    orderId: placed.data.orderId,
    placedAt: placed.data.createdAt,
    processingMode: PROCESSING_MODE_LABELS[placed.data.processingMode],
    processingDate: placed.data.processingDate,
    status: "ChargeBack",
    traveller: { name: [personal?.first_name, personal?.last_name].filter(Boolean).join(" "), email },
    personalDataErased: personal === undefined,
    transaction: { transactionId: "ch_3OqZ8d2eZvKYlo2C1", merchantName: "ETD Services" },
    document: { fileName: file, uploadedAt: hour(13), uploadedBy: "Paolo Reyes" },
    mails: [
      { requestedAt: hour(13), kind: "Document", provider: "AWS", transport: "AWS SES", to: email, file, requestedBy: "Paolo Reyes", status: "Delivered", sentAt: hour(13, 1) },
      { requestedAt: hour(15), kind: "Document", provider: "Sendgrid", transport: "Sendgrid", to: email, file, requestedBy: "Maria Santos", status: "Delivered", sentAt: hour(15, 1) },
      { requestedAt: hour(20), kind: "Reminder", provider: "AWS", transport: "AWS SES", to: email, file, requestedBy: "reminders", status: "Delivered", sentAt: hour(20, 1) },
      { requestedAt: hour(21), kind: "Invoice", provider: "AWS", transport: "AWS SES", to: email, file: null, requestedBy: "Maria Santos", status: "Sent", sentAt: hour(21, 1) },
    ],
    downloads: [
      { at: hour(16), ip: "203.0.113.9", location: "Manila, PH", timezone: "Asia/Manila", browser: "Safari 17", os: "iOS 17", device: "iPhone", deviceType: "mobile", file },
      { at: hour(22), ip: "198.51.100.7", location: "Daly City, US", timezone: "America/Los_Angeles", browser: "Chrome 122", os: "Windows 11", device: null, deviceType: "desktop", file },
    ],
    comments: [
      { at: hour(14), by: "Paolo Reyes", remark: "Customer called to confirm the flight number.", flags: ["Telephone"] },
      { at: hour(23), by: "Maria Santos", remark: "Bank reports a chargeback; pack 2 prepared.", flags: ["Chargeback"] },
    ],
    asOf: hour(23),
  };
};

const main = async () => {
  if (!(await chromiumInstalled())) {
    console.log(`*** P8 SKIPPED: no Chromium at ${chromiumPath()} (install Debian's chromium or set CHROMIUM_PATH). ***`);
    return;
  }
  const { placed, invoiceSent } = realisticOrder();
  const evidence = evidenceOf(placed);
  const kinds: { name: string; html: string }[] = [
    { name: "invoice", html: invoiceHtml(invoiceInput([placed, invoiceSent], invoiceSent)) },
    ...([1, 2] as const).map((pack: DefencePackType) => ({ name: `defence pack ${String(pack)}`, html: defencePackHtml(evidence, pack) })),
  ];

  const pdf = createChromiumRenderer();
  try {
    const coldStart = performance.now();
    await pdf.render(kinds[0]!.html);
    console.log(`first render (browser start included): ${(performance.now() - coldStart).toFixed(1)} ms`);
    for (let i = 0; i < WARM_UP; i++) for (const kind of kinds) await pdf.render(kind.html);

    const samples = new Map<string, number[]>(kinds.map((kind) => [kind.name, []]));
    const sizes = new Map<string, number>();
    for (let i = 0; i < RUNS; i++) {
      for (const kind of kinds) {
        const started = performance.now();
        const bytes = await pdf.render(kind.html);
        samples.get(kind.name)!.push(performance.now() - started);
        sizes.set(kind.name, bytes.length);
      }
    }
    for (const kind of kinds) {
      const times = samples.get(kind.name)!;
      console.log(`${kind.name}: median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms over ${String(times.length)} renders (${String(sizes.get(kind.name))} bytes)`);
    }
    console.log(`P8 pdf_median_ms=${median([...samples.values()].flat()).toFixed(1)}`);
  } finally {
    await pdf.close();
  }
};

await main();
