import type { Query } from "@etd/event-store";
import {
  ipv6Groups,
  type AuditLine,
  type DownloadHistoryEntry,
  type MailHistoryEntry,
  type OrderDetails,
  type OrderDocument,
  type PublicDownloadHistory,
  type RemarkEntry,
} from "@etd/contract";
import { orderStream, type LandingDomain, type OrderId, type OrderStatus, type Role } from "@etd/events";
import type { MailRow } from "./order-details-fold-mails.ts";
import { customerName } from "./order-document.ts";

/*
 * The reads of the order detail models. Each answer is one round trip: the order row by its
 * primary key, its histories through (order_id, stream_position) indexes, assembled by
 * PostgreSQL as JSON. Queries read the views (`order_details`, `mail_history`, …), which the
 * engine points at the live build.
 *
 * The answers are the wire contract's types (contract/src/order-page.ts), re-exported here so
 * that readers of the projections keep their imports.
 */

export type { AuditLine, OrderDetails } from "@etd/contract";

const iso = (value: unknown): string => new Date(value as string).toISOString();
const isoOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : iso(value));

/** A mail_history row as `to_jsonb` gives it (its times in PostgreSQL's text form), as the page reads it. */
const mailEntry = (m: MailRow): MailHistoryEntry => ({
  id: m.mail_id,
  order_id: m.order_id,
  create_ts: iso(m.create_ts),
  remainder_mail: m.remainder_mail,
  purpose: m.purpose,
  uploadDoc: { mail_service_provider: m.mail_service_provider, file1: m.file1, path: m.file_path },
  email: m.recipient,
  requested_by: m.requested_by,
  status: m.status,
  transport: m.transport,
  reason: m.reason,
  attempt: m.attempt,
  retry_at: isoOrNull(m.retry_at),
  sent_at: isoOrNull(m.sent_at),
  delivered_at: isoOrNull(m.delivered_at),
  retry_requested: m.retry_requested,
});

interface DownloadJson extends Omit<DownloadHistoryEntry, "id"> {
  readonly download_id: string;
}

const downloadEntry = ({ download_id, ...d }: DownloadJson): DownloadHistoryEntry => ({
  id: download_id,
  order_id: d.order_id,
  create_ts: iso(d.create_ts),
  ip: d.ip,
  location: d.location,
  timezone: d.timezone,
  browser: d.browser,
  os: d.os,
  device: d.device,
  device_type: d.device_type,
  file: d.file,
});

interface CommentJson extends Omit<RemarkEntry, "id" | "create_ts"> {
  readonly remark_id: string;
  readonly created_at: string;
}

const remarkEntry = (c: CommentJson): RemarkEntry => ({
  id: c.remark_id,
  order_id: c.order_id,
  create_ts: iso(c.created_at),
  us_date: c.us_date,
  us_time: c.us_time,
  remark_name: c.remark_name,
  remark: c.remark,
  whatsapp: c.whatsapp,
  telephone: c.telephone,
  status_refund: c.status_refund,
  voided: c.voided,
  chargeback: c.chargeback,
  report_error: c.report_error,
});

const historyOf = (table: string, columns = `to_jsonb(h)`) => `
  (select coalesce(jsonb_agg(${columns} order by h.stream_position), '[]'::jsonb)
     from ${table} h where h.order_id = o.order_id)`;

/** The order for the detail page (ORDER-1), or undefined when no such order was placed. */
export const orderDetails = async (query: Query, orderId: string): Promise<OrderDetails | undefined> => {
  const rows = await query(
    `select o.document, o.stream_position::text as version, o.assignee_id, o.file_name, o.stored_path, o.uploaded_by_name, o.uploaded_at, o.refund_date::text as refund_date,
            o.transaction_id, o.merchant_name, o.defence_packs, o.erased,
            ${historyOf("mail_history")} as mails,
            ${historyOf("download_history")} as downloads,
            ${historyOf("comment_history")} as comments
       from order_details o where o.order_id = $1`,
    [orderId],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  const document = row.document as OrderDocument;
  const mails = (row.mails as MailRow[]).map(mailEntry);
  const packs = row.defence_packs as { pack_type: 1 | 2; file_name: string; stored_path: string; generated_at: string }[];
  return {
    ...document,
    // The stream position of the order's last event: every order event moves it (order-details-fold-orders.ts).
    version: Number(row.version),
    assign_to_id: (row.assignee_id as string | null) ?? null,
    refund_date: (row.refund_date as string | null) ?? null,
    transaction_id: (row.transaction_id as string | null) ?? null,
    merchant_name: (row.merchant_name as string | null) ?? null,
    mailHistory: mails.filter((mail) => mail.purpose !== "invoice"),
    invoiceHistory: mails.filter((mail) => mail.purpose === "invoice"),
    uploadDoc:
      row.file_name === null || row.file_name === undefined
        ? []
        : [
            {
              file1: row.file_name as string,
              customer_name: customerName(document),
              path: row.stored_path as string,
              uploaded_by: row.uploaded_by_name as string,
              uploaded_at: iso(row.uploaded_at),
            },
          ],
    downloadHistory: (row.downloads as DownloadJson[]).map(downloadEntry),
    remark: (row.comments as CommentJson[]).map(remarkEntry),
    defencePacks: packs.map((pack) => ({ packType: pack.pack_type, file1: pack.file_name, path: pack.stored_path, generated_at: iso(pack.generated_at) })),
    personal_data_erased: row.erased === true,
  };
};

/**
 * The public download page shows the device IP column (PUBLIC-2). Its reader proved the order's id
 * and e-mail (ADR 0007), but a forwarded mail or a shared computer gives that proof to others too,
 * so the public answer keeps the network part only (IPv4: the first three octets; IPv6: the first
 * three groups): enough for a traveller to recognise their own downloads, beside the country.
 * Staff see the whole address.
 */
export const maskIp = (ip: string | null): string | null => {
  if (ip === null) return null;
  if (ip.includes(".") && !ip.includes(":")) return ip.split(".").slice(0, 3).concat("xxx").join(".");
  return `${ipv6Groups(ip).slice(0, 3).join(":")}:xxxx`;
};

/**
 * The public download page's history (POST /front/get-download-history, PUBLIC-2), or undefined
 * when the order does not exist or was deleted permanently.
 */
export const downloadHistory = async (query: Query, orderId: string): Promise<PublicDownloadHistory | undefined> => {
  const rows = await query(
    `select o.document->>'first_name' as first_name, o.process_status, o.document->>'landing_domain' as landing_domain,
            o.file_name, ${historyOf("download_history")} as downloads
       from order_details o where o.order_id = $1 and not o.erased`,
    [orderId],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return {
    data: (row.downloads as DownloadJson[]).map((d) => ({
      order_id: d.order_id,
      create_ts: iso(d.create_ts),
      ip: maskIp(d.ip),
      timezone: d.timezone,
      browser: d.browser,
      os: d.os,
      device: d.device,
      device_type: d.device_type,
      location: d.location,
      file: d.file,
    })),
    mainResult: {
      order_id: orderId,
      first_name: (row.first_name as string | null) ?? "",
      process_status: row.process_status as OrderStatus,
      landing_domain: row.landing_domain as LandingDomain,
    },
    path: { file1: (row.file_name as string | null) ?? null },
  };
};

export type AuditTarget = { readonly orderId: string } | { readonly streamId: string };

export interface AuditPaging {
  /** Lines after this stream position (exclusive); from the start when absent. */
  readonly after?: number | undefined;
  /** 1..500, default 100. */
  readonly limit?: number | undefined;
}

export interface AuditPage {
  readonly lines: readonly AuditLine[];
  /** Pass as `after` for the next page; null on the last page. */
  readonly next: number | null;
}

export const AUDIT_PAGE_DEFAULT = 100;
export const AUDIT_PAGE_MAX = 500;

/** A stream's history, oldest first (CARD-4): by order id, or by any stream name (`staff-…`, `gateways`). */
export const auditTimeline = async (query: Query, target: AuditTarget, paging: AuditPaging = {}): Promise<AuditPage> => {
  const stream = "orderId" in target ? orderStream(target.orderId as OrderId) : target.streamId;
  const limit = Math.min(Math.max(Math.trunc(paging.limit ?? AUDIT_PAGE_DEFAULT), 1), AUDIT_PAGE_MAX);
  const after = Math.max(Math.trunc(paging.after ?? 0), 0);
  const rows = await query(
    `select stream, stream_position::text as position, log_tx::text as log_tx, log_seq::text as log_seq, event_id,
            occurred_at, actor_kind, actor_name, actor_role, request_ip, event_type, summary
       from audit_timeline
      where stream = $1 and stream_position > $2
      order by stream_position
      limit $3`,
    [stream, after, limit + 1],
  );
  const lines = rows.slice(0, limit).map(
    (row): AuditLine => ({
      stream: row.stream as string,
      position: Number(row.position),
      log_position: `${row.log_tx as string}.${row.log_seq as string}`,
      event_id: row.event_id as string,
      occurred_at: iso(row.occurred_at),
      actor_kind: row.actor_kind as AuditLine["actor_kind"],
      actor_name: row.actor_name as string,
      actor_role: (row.actor_role as Role | null) ?? null,
      request_ip: (row.request_ip as string | null) ?? null,
      event_type: row.event_type as string,
      summary: row.summary as string,
    }),
  );
  return { lines, next: rows.length > limit ? (lines.at(-1)?.position ?? null) : null };
};
