import { easternDateTime } from "./eastern-time.ts";
import type { DefencePackEvidence } from "./defence-pack-evidence.ts";
import { escapeHtml, fieldTable, listTable } from "./html.ts";

/*
 * The chargeback defence packs (ORDER-13) as HTML, for the PDF renderer. Pure: the same evidence
 * gives the same text, byte for byte, so a regenerated pack is the same pack (DESIGN §8).
 *
 * - Pack 1: the transaction and the service delivered: the order, the traveller, the payment,
 *   the document, every mail with its provider and delivery status, every download with its
 *   time (US Eastern), IP and device.
 * - Pack 2: pack 1, plus the service timeline (the same evidence, in time order) and the comment
 *   history. Never the audit timeline: see defence-pack-evidence.ts (issue 9 item 5).
 */

export type DefencePackType = 1 | 2;

const STYLE = `
  @page { size: A4; margin: 16mm 14mm; }
  * { box-sizing: border-box; }
  body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 9.5pt; color: #1a1a1a; margin: 0; }
  header { border-bottom: 2px solid #1d3557; padding-bottom: 6pt; margin-bottom: 10pt; }
  h1 { font-size: 16pt; margin: 0 0 2pt; color: #1d3557; }
  h2 { font-size: 11.5pt; margin: 14pt 0 5pt; color: #1d3557; border-bottom: 1px solid #c9d3e0; padding-bottom: 2pt; page-break-after: avoid; }
  .meta { color: #555; margin: 0; }
  .note { background: #fff4e5; border: 1px solid #f0c27b; padding: 5pt 7pt; margin: 8pt 0; }
  table { border-collapse: collapse; width: 100%; }
  tr { page-break-inside: avoid; }
  th, td { text-align: left; vertical-align: top; padding: 3pt 5pt; border: 1px solid #d5dbe3; }
  /* Long values (addresses, file names) wrap inside their cell; headings and words stay whole. */
  td { overflow-wrap: break-word; }
  table.list { font-size: 8pt; }
  table.fields th { width: 32%; background: #f1f4f8; font-weight: 600; }
  table.list thead th { background: #1d3557; color: #fff; font-weight: 600; }
  table.list tbody tr:nth-child(even) td { background: #f7f9fb; }
  .empty { color: #777; font-style: italic; margin: 2pt 0; }
  footer { margin-top: 14pt; color: #777; font-size: 8pt; border-top: 1px solid #d5dbe3; padding-top: 4pt; }
`;

const when = (iso: string | null): string | null => (iso === null ? null : easternDateTime(iso));

const section = (title: string, body: string): string => `<section><h2>${escapeHtml(title)}</h2>${body}</section>`;

const orderSection = (e: DefencePackEvidence): string =>
  section(
    "Order",
    fieldTable([
      ["Order ID", e.orderId],
      ["Placed on", when(e.placedAt)],
      ["Processing mode", e.processingMode],
      ["Processing date", e.processingDate],
      ["Current status", e.status],
    ]),
  );

const travellerSection = (e: DefencePackEvidence): string =>
  section(
    "Traveller",
    e.personalDataErased
      ? `<p class="note">The traveller's personal data was permanently deleted from this order; the name and e-mail address can no longer be shown.</p>`
      : fieldTable([
          ["Name", e.traveller.name],
          ["E-mail", e.traveller.email],
        ]),
  );

const transactionSection = (e: DefencePackEvidence): string =>
  section(
    "Transaction",
    e.transaction
      ? fieldTable([
          ["Transaction ID", e.transaction.transactionId],
          ["Merchant name", e.transaction.merchantName],
        ])
      : `<p class="empty">No transaction details have been entered for this order.</p>`,
  );

const documentSection = (e: DefencePackEvidence): string =>
  section(
    "Document delivered",
    e.document
      ? fieldTable([
          ["File", e.document.fileName],
          ["Uploaded on", when(e.document.uploadedAt)],
          ["Uploaded by", e.document.uploadedBy],
        ])
      : `<p class="empty">No document has been uploaded for this order.</p>`,
  );

const mailSection = (e: DefencePackEvidence): string =>
  section(
    "Mail history",
    listTable(
      ["Requested (ET)", "Mail", "Provider", "Sent through", "To", "File", "Requested by", "Delivery status", "Sent (ET)"],
      e.mails.map((m) => [when(m.requestedAt), m.kind, m.provider, m.transport, m.to, m.file, m.requestedBy, m.status, when(m.sentAt)]),
      "No mail has been sent for this order.",
    ),
  );

const downloadSection = (e: DefencePackEvidence): string =>
  section(
    "Download history",
    listTable(
      ["Downloaded (ET)", "File", "IP address", "Location", "Time zone", "Browser", "Operating system", "Device"],
      e.downloads.map((d) => [
        when(d.at),
        d.file,
        d.ip,
        d.location,
        d.timezone,
        d.browser,
        d.os,
        [d.device, d.deviceType].filter((part) => part !== null && part !== "").join(", "),
      ]),
      "The document has not been downloaded.",
    ),
  );

const joined = (parts: readonly (string | null)[], separator: string) => parts.filter((p): p is string => p !== null && p !== "").join(separator);

/** The pack's evidence as one list in time order (ties in the order below); nothing the sections do not show. */
export const serviceTimeline = (e: DefencePackEvidence): { readonly at: string; readonly what: string }[] => {
  const lines = [
    { at: e.placedAt, what: `Order placed (${e.processingMode})` },
    ...(e.document ? [{ at: e.document.uploadedAt, what: `Document ${e.document.fileName} uploaded by ${e.document.uploadedBy}` }] : []),
    ...e.mails.flatMap((m) => [
      { at: m.requestedAt, what: joined([`${m.kind} mail requested by ${m.requestedBy} via ${m.provider}`, m.to && `to ${m.to}`, m.status === "Sent" ? null : `(${m.status})`], " ") },
      ...(m.sentAt === null ? [] : [{ at: m.sentAt, what: joined([`${m.kind} mail delivered`, m.to && `to ${m.to}`, m.transport && `via ${m.transport}`], " ") }]),
    ]),
    ...e.downloads.map((d) => ({ at: d.at, what: joined([`${d.file} downloaded`, d.ip && `from ${d.ip}`, d.browser && `with ${d.browser}`, d.os && `on ${d.os}`], " ") })),
  ];
  return lines.map((line, index) => ({ line, index })).sort((a, b) => a.line.at.localeCompare(b.line.at) || a.index - b.index).map(({ line }) => line);
};

const timelineSection = (e: DefencePackEvidence): string =>
  section(
    "Service timeline",
    listTable(["When (ET)", "What happened"], serviceTimeline(e).map((line) => [when(line.at), line.what]), "Nothing has happened to this order yet."),
  );

const commentSection = (e: DefencePackEvidence): string =>
  section(
    "Comment history",
    listTable(
      ["When (ET)", "By", "Comment", "Flags"],
      e.comments.map((c) => [when(c.at), c.by, c.remark, c.flags.join(", ")]),
      "No comments have been added to this order.",
    ),
  );

const TITLES: Readonly<Record<DefencePackType, string>> = {
  1: "Chargeback defence pack 1: transaction and service evidence",
  2: "Chargeback defence pack 2: full order evidence",
};

/** The pack's HTML document; every value escaped, all styling inline. */
export const defencePackHtml = (evidence: DefencePackEvidence, packType: DefencePackType): string => {
  const sections = [orderSection, travellerSection, transactionSection, documentSection, mailSection, downloadSection];
  if (packType === 2) sections.push(timelineSection, commentSection);
  const title = `${TITLES[packType]} (order ${evidence.orderId})`;
  return [
    "<!DOCTYPE html>",
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>`,
    `<header><h1>${escapeHtml(TITLES[packType])}</h1>`,
    `<p class="meta">Order ${escapeHtml(evidence.orderId)} · evidence as of ${escapeHtml(when(evidence.asOf))}</p></header>`,
    ...sections.map((render) => render(evidence)),
    `<footer>Compiled from the order's recorded history. Times are US Eastern (ET). Evidence as of ${escapeHtml(when(evidence.asOf))}.</footer>`,
    "</body></html>",
  ].join("\n");
};

/** The name the PDF is stored and served under. */
export const defencePackFileName = (packType: DefencePackType): string => `defence-pack-${packType}.pdf`;
