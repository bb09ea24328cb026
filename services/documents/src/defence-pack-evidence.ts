import { personName } from "./html.ts";
import type { Query } from "@etd/event-store";
import type { MailStatus } from "@etd/contract";
import { AUDIT_PAGE_MAX, auditTimeline, orderDetails, type AuditLine, type OrderDetails } from "@etd/projections";

/*
 * What a chargeback defence pack (ORDER-13) shows, read from the order detail read model: that
 * the traveller ordered, what was delivered, that it reached them and that they fetched it.
 *
 * Decision (issue 9 item 5): the pack's evidence is what the order's view page shows every
 * signed-in member (001 §2 "View order", §6 "Every signed-in user can view an order"): the order,
 * the traveller, the transaction, the document, the mail, download and comment histories. It
 * never includes the audit timeline (who did what to the order, CARD-4), which is Admin and
 * Manager only ("audit.read"), because every role may generate a pack and read the stored file.
 * So a pack is the same whoever generates it; the audit lines are answered separately, and only
 * to the roles that may read the audit (`readAuditTimeline`).
 *
 * The pack's date is the time of the last thing it shows, never the clock, so a regenerated pack
 * is the same pack.
 */

export interface MailEvidence {
  readonly requestedAt: string;
  readonly kind: "Document" | "Reminder" | "Invoice";
  readonly provider: string;
  /** The adapter that sent it (AWS SES, Sendgrid, outbox), once known. */
  readonly transport: string | null;
  readonly to: string | null;
  readonly file: string | null;
  readonly requestedBy: string;
  /** "Requested", "Sent" or "Failed", with the failure's reason. */
  readonly status: string;
  readonly sentAt: string | null;
}

export interface DownloadEvidence {
  readonly at: string;
  readonly ip: string | null;
  readonly location: string | null;
  readonly timezone: string | null;
  readonly browser: string | null;
  readonly os: string | null;
  readonly device: string | null;
  readonly deviceType: string | null;
  readonly file: string;
}

/** One line of the order's audit timeline; answered to audit readers only, never in a pack. */
export interface AuditTimelineLine {
  readonly at: string;
  readonly eventType: string;
  /** The audit sentence: who did what ("Maria Santos (Manager) moved the order …"). */
  readonly summary: string;
}

export interface CommentEvidence {
  readonly at: string;
  readonly by: string;
  readonly remark: string;
  /** The ticked flags by the names the form shows: Whatsapp, Telephone, Refund … */
  readonly flags: readonly string[];
}

export interface DefencePackEvidence {
  readonly orderId: string;
  /** When the traveller placed the order on the site. */
  readonly placedAt: string;
  readonly processingMode: string;
  readonly processingDate: string;
  readonly status: string;
  readonly traveller: { readonly name: string; readonly email: string | null };
  /** After a permanent delete the person is gone; the packs say so instead of showing blanks. */
  readonly personalDataErased: boolean;
  readonly transaction: { readonly transactionId: string; readonly merchantName: string } | null;
  readonly document: { readonly fileName: string; readonly uploadedAt: string; readonly uploadedBy: string } | null;
  readonly mails: readonly MailEvidence[];
  readonly downloads: readonly DownloadEvidence[];
  readonly comments: readonly CommentEvidence[];
  /** The time of the latest thing the evidence holds: the pack's date. */
  readonly asOf: string;
}

export interface GeneratedPack {
  readonly packType: 1 | 2;
  readonly fileName: string;
  readonly storedPath: string;
  readonly generatedAt: string;
}

const TRANSPORTS: Readonly<Record<string, string>> = { ses: "AWS SES", sendgrid: "Sendgrid", outbox: "Outbox (.eml file)" };
const MAIL_KINDS = { document: "Document", reminder: "Reminder", invoice: "Invoice" } as const;

/** What became of a mail, as the sender and then the provider's delivery reports told it (issue 12). */
const MAIL_STATES: Readonly<Record<MailStatus, string>> = {
  requested: "Requested",
  queued: "Queued",
  sent: "Sent",
  delivered: "Delivered to the recipient's mail server",
  bounced: "Bounced",
  complained: "Marked as spam by the recipient",
  failed: "Failed",
  unknown: "Outcome unknown",
};

const mailStatus = (status: MailStatus, reason: string | null): string =>
  `${MAIL_STATES[status]}${reason && (status === "failed" || status === "bounced") ? `: ${reason}` : ""}`;

const FLAG_NAMES = [
  ["whatsapp", "Whatsapp"],
  ["telephone", "Telephone"],
  ["status_refund", "Refund"],
  ["voided", "Voided"],
  ["chargeback", "Chargeback"],
  ["report_error", "ReportError"],
] as const;

/** The evidence from the order's read model, as the view page shows it to every role. Pure. */
export const defencePackEvidence = (details: OrderDetails): DefencePackEvidence => {
  const mails = [...details.mailHistory, ...details.invoiceHistory]
    .map((mail, index) => ({ mail, index }))
    // Email History and invoices are two ordered lists; one list by time, ties kept as read.
    .sort((a, b) => a.mail.create_ts.localeCompare(b.mail.create_ts) || a.index - b.index)
    .map(({ mail }): MailEvidence => ({
      requestedAt: mail.create_ts,
      kind: MAIL_KINDS[mail.purpose],
      provider: mail.uploadDoc.mail_service_provider,
      transport: mail.transport ? (TRANSPORTS[mail.transport] ?? mail.transport) : null,
      to: mail.email,
      file: mail.uploadDoc.file1,
      requestedBy: mail.requested_by,
      status: mailStatus(mail.status, mail.reason),
      sentAt: mail.sent_at,
    }));
  const current = details.uploadDoc[0];
  const downloads = details.downloadHistory.map((d) => ({
    at: d.create_ts,
    ip: d.ip,
    location: d.location,
    timezone: d.timezone,
    browser: d.browser,
    os: d.os,
    device: d.device,
    deviceType: d.device_type,
    file: d.file,
  }));
  const comments = details.remark.map((r) => ({
    at: r.create_ts,
    by: r.remark_name,
    remark: r.remark,
    flags: FLAG_NAMES.filter(([key]) => r[key] === "Y").map(([, name]) => name),
  }));
  const times = [
    details.created_at,
    ...(current ? [current.uploaded_at] : []),
    ...mails.flatMap((m) => (m.sentAt === null ? [m.requestedAt] : [m.requestedAt, m.sentAt])),
    ...downloads.map((d) => d.at),
    ...comments.map((c) => c.at),
  ];
  return {
    orderId: details.order_id,
    placedAt: details.created_at,
    processingMode: details.processing_mode,
    processingDate: details.processing_date,
    status: details.process_status_label,
    traveller: { name: personName(details), email: typeof details.email === "string" ? details.email : null },
    personalDataErased: details.personal_data_erased,
    transaction:
      details.transaction_id !== null && details.merchant_name !== null
        ? { transactionId: details.transaction_id, merchantName: details.merchant_name }
        : null,
    document: current ? { fileName: current.file1, uploadedAt: current.uploaded_at, uploadedBy: current.uploaded_by } : null,
    mails,
    downloads,
    comments,
    // ISO-8601 UTC times sort as text.
    asOf: times.reduce((latest, at) => (at > latest ? at : latest)),
  };
};

export const generatedPacks = (details: OrderDetails): GeneratedPack[] =>
  details.defencePacks.map((pack) => ({ packType: pack.packType, fileName: pack.file1, storedPath: pack.path, generatedAt: pack.generated_at }));

/** Every audit line of the order, page by page. */
const allLines = async (query: Query, orderId: string): Promise<readonly AuditLine[]> => {
  const lines: AuditLine[] = [];
  let after: number | undefined;
  for (;;) {
    const page = await auditTimeline(query, { orderId }, { after, limit: AUDIT_PAGE_MAX });
    lines.push(...page.lines);
    if (page.next === null) return lines;
    after = page.next;
  }
};

/**
 * The order's evidence and the packs already made, or undefined when the read model has no such
 * order. The caller waits for the read model to reach the stream's last event first.
 */
export const readDefencePackEvidence = async (
  query: Query,
  orderId: string,
): Promise<{ readonly evidence: DefencePackEvidence; readonly packs: readonly GeneratedPack[] } | undefined> => {
  const details = await orderDetails(query, orderId);
  return details ? { evidence: defencePackEvidence(details), packs: generatedPacks(details) } : undefined;
};

/** The order's audit timeline, oldest first: for callers that have checked "audit.read". */
export const readAuditTimeline = async (query: Query, orderId: string): Promise<AuditTimelineLine[]> =>
  (await allLines(query, orderId)).map((line) => ({ at: line.occurred_at, eventType: line.event_type, summary: line.summary }));
