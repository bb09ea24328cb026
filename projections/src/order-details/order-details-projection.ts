import type { Query } from "@etd/event-store";
import type { Changed, ProjectedEvent, Projection, TableName } from "../engine/projection.ts";
import {
  batchNeeds,
  foldBatch,
  type AuditRow,
  type CommentRow,
  type DownloadRow,
  type MailRow,
  type NameRow,
  type OrderDetailsRow,
} from "./order-details-fold.ts";

/*
 * The order detail read models (DESIGN §5, CARD-2, CARD-4): the order document the view page
 * reads (ORDER-1..7), its mail, download and comment histories (ORDER-2, ORDER-8, ORDER-9,
 * PUBLIC-2), and the audit timeline of every stream.
 *
 * apply reads the rows a batch needs once, folds the batch in memory (order-details-fold.ts) and
 * writes each table back with one statement: a rebuild costs a few statements per batch, not
 * per event.
 *
 * Permanent delete (OrderPermanentlyDeleted) erases the person, keeps the history (ADR 0009):
 * - order_details: the document keeps the application's closed-set answers (trip type, dates,
 *   counts, yes/no answers, amounts) and the processing fields (an allow-list); the status stays
 *   Deleted; `erased` is set.
 * - order_details: also the current document's file name and stored path (names like
 *   "passport_Liza.pdf" are personal), the transaction's id and merchant, and the defence packs'
 *   file names and paths.
 * - mail_history: the recipient address, the file name/path and the provider's reason are
 *   blanked; the rows stay (what was mailed, when, how).
 * - download_history: ip, location, the device and the file name are blanked; the time stays.
 * - comment_history: the rows stay (who, when, flags: dispute evidence) but the text becomes "".
 * - audit_timeline: its sentences name no traveller but quote file names, transaction details,
 *   providers' answers and devices; each line keeps its erased form beside it, which replaces it.
 *   Staff request IPs stay: staff are accountable for their actions.
 * After a rebuild the events themselves arrive with `personal: {erased: true}`, so the same rows
 * come out without anything to blank; events stored before their text was sealed (remarks before
 * version 3, transaction details and defence packs before version 2) hold it in the clear, and
 * are blanked again when the replayed delete is folded.
 */

export const ORDER_DETAIL_TABLES = {
  orders: "order_details",
  mails: "mail_history",
  downloads: "download_history",
  comments: "comment_history",
  audit: "audit_timeline",
  names: "audit_names",
} as const;

type Base = keyof typeof ORDER_DETAIL_TABLES;

const migrate = async (query: Query, table: TableName): Promise<void> => {
  const t = (base: Base) => table(ORDER_DETAIL_TABLES[base]);
  await query(`
    create table ${t("orders")} (
      order_id text primary key,
      document jsonb not null,
      process_status text not null,
      assignee_id text,
      assignee_name text,
      file_name text,
      stored_path text,
      uploaded_by_id text,
      uploaded_by_name text,
      uploaded_at timestamptz,
      refund_date date,
      transaction_id text,
      merchant_name text,
      defence_packs jsonb not null default '[]',
      erased boolean not null default false,
      stream_position bigint not null,
      updated_at timestamptz not null
    )`);
  // An order's histories: one row an entry, read per order in the order of its stream.
  const history = async (base: Base, key: string, createdAt: string, columns: string) => {
    await query(`
      create table ${t(base)} (
        ${key} text primary key,
        order_id text not null,
        stream_position bigint not null,
        ${createdAt} timestamptz not null,
        ${columns}
      )`);
    await query(`create index ${t(base)}_order on ${t(base)} (order_id, stream_position)`);
  };
  await history(
    "mails",
    "mail_id",
    "create_ts",
    `purpose text not null,
      remainder_mail smallint not null,
      mail_service_provider text not null,
      file1 text,
      file_path text,
      requested_by text not null,
      recipient text,
      status text not null check (status in ('requested', 'queued', 'sent', 'delivered', 'bounced', 'complained', 'failed', 'unknown')),
      transport text,
      reason text,
      attempt integer not null,
      retry_at timestamptz,
      retry_requested boolean not null,
      sent_at timestamptz,
      delivered_at timestamptz,
      updated_at timestamptz not null`,
  );
  await history(
    "downloads",
    "download_id",
    "create_ts",
    "ip text, location text, timezone text, browser text, os text, device text, device_type text, file text not null",
  );
  await history(
    "comments",
    "remark_id",
    "created_at",
    `us_date text not null,
      us_time text not null,
      remark_name text not null,
      remark text not null,
      added_by text not null,
      whatsapp char(1) not null,
      telephone char(1) not null,
      status_refund char(1) not null,
      voided char(1) not null,
      chargeback char(1) not null,
      report_error char(1) not null`,
  );
  await query(`
    create table ${t("audit")} (
      stream text not null,
      stream_position bigint not null,
      log_tx numeric(20, 0) not null,
      log_seq numeric(20, 0) not null,
      event_id text not null,
      occurred_at timestamptz not null,
      order_id text,
      actor_kind text not null,
      actor_id text,
      actor_name text not null,
      actor_role text,
      request_ip text,
      event_type text not null,
      summary text not null,
      erased_summary text,
      primary key (stream, stream_position)
    )`);
  // A permanent delete finds the lines that read differently once erased, and no others.
  await query(`create index ${t("audit")}_erasable on ${t("audit")} (order_id) where erased_summary is not null`);
  await query(`
    create table ${t("names")} (
      ref text primary key,
      name text not null,
      role text,
      email text
    )`);
};

/** Column lists with their types, for `jsonb_to_recordset`: one parameter carries every row. */
const COLUMNS = {
  orders: `order_id text, document jsonb, process_status text, assignee_id text, assignee_name text, file_name text,
    stored_path text, uploaded_by_id text, uploaded_by_name text, uploaded_at timestamptz, refund_date date,
    transaction_id text, merchant_name text, defence_packs jsonb, erased boolean, stream_position bigint, updated_at timestamptz`,
  mails: `mail_id text, order_id text, stream_position bigint, create_ts timestamptz, purpose text, remainder_mail smallint,
    mail_service_provider text, file1 text, file_path text, requested_by text, recipient text, status text, transport text,
    reason text, attempt integer, retry_at timestamptz, retry_requested boolean,
    sent_at timestamptz, delivered_at timestamptz, updated_at timestamptz`,
  downloads: `download_id text, order_id text, stream_position bigint, create_ts timestamptz, ip text, location text,
    timezone text, browser text, os text, device text, device_type text, file text`,
  comments: `remark_id text, order_id text, stream_position bigint, created_at timestamptz, us_date text, us_time text,
    remark_name text, remark text, added_by text, whatsapp char(1), telephone char(1), status_refund char(1), voided char(1),
    chargeback char(1), report_error char(1)`,
  audit: `stream text, stream_position bigint, log_tx numeric(20, 0), log_seq numeric(20, 0), event_id text,
    occurred_at timestamptz, order_id text, actor_kind text, actor_id text, actor_name text, actor_role text,
    request_ip text, event_type text, summary text, erased_summary text`,
  names: "ref text, name text, role text, email text",
} as const satisfies Record<Base, string>;

/** The names in a column list; a comma inside parentheses (`numeric(20, 0)`) is not a separator, so those go first. */
const namesOf = (columns: string) =>
  columns
    .replace(/\([^()]*\)/g, "")
    .split(",")
    .map((column) => column.trim().split(/\s+/)[0]!);

/** `insert … select … from jsonb_to_recordset($1)`, replacing rows with the same key. */
const upsert = async (query: Query, table: string, base: Base, key: string, rows: readonly object[]): Promise<void> => {
  if (rows.length === 0) return;
  const columns = namesOf(COLUMNS[base]);
  const updates = columns.filter((column) => column !== key).map((column) => `${column} = excluded.${column}`);
  await query(
    `insert into ${table} (${columns.join(", ")})
     select ${columns.join(", ")} from jsonb_to_recordset($1::jsonb) as r(${COLUMNS[base]})
     on conflict (${key}) do ${updates.length === 0 ? "nothing" : `update set ${updates.join(", ")}`}`,
    [JSON.stringify(rows)],
  );
};

/** Rows that are only ever added: a replayed batch (the engine never replays one) changes nothing. */
const insertNew = async (query: Query, table: string, base: Base, key: string, rows: readonly object[]): Promise<void> => {
  if (rows.length === 0) return;
  const columns = namesOf(COLUMNS[base]).join(", ");
  await query(
    `insert into ${table} (${columns})
     select ${columns} from jsonb_to_recordset($1::jsonb) as r(${COLUMNS[base]})
     on conflict (${key}) do nothing`,
    [JSON.stringify(rows)],
  );
};

/**
 * Rows come back through `to_jsonb`, so both drivers (pg and PGlite) hand over the same JSON;
 * timestamps are put back into the events' own ISO form.
 */
const iso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());

const loadOrders = async (query: Query, table: string, orderIds: readonly string[]): Promise<OrderDetailsRow[]> => {
  if (orderIds.length === 0) return [];
  const rows = await query(`select to_jsonb(o) as row from ${table} o where order_id = any($1::text[])`, [orderIds]);
  return rows.map(({ row }) => {
    const r = row as OrderDetailsRow;
    return { ...r, uploaded_at: iso(r.uploaded_at), updated_at: iso(r.updated_at)! };
  });
};

/** The rows a batch's mail events name, by primary key: a mail's story never needs its siblings. */
const loadMails = async (query: Query, table: string, mailIds: readonly string[]): Promise<MailRow[]> => {
  if (mailIds.length === 0) return [];
  const rows = await query(`select to_jsonb(m) as row from ${table} m where mail_id = any($1::text[])`, [mailIds]);
  return rows.map(({ row }) => {
    const r = row as MailRow;
    return {
      ...r,
      create_ts: iso(r.create_ts)!,
      retry_at: iso(r.retry_at),
      sent_at: iso(r.sent_at),
      delivered_at: iso(r.delivered_at),
      updated_at: iso(r.updated_at)!,
    };
  });
};

const loadNames = async (query: Query, table: string, refs: readonly string[]): Promise<NameRow[]> => {
  if (refs.length === 0) return [];
  const rows = await query(`select ref, name, role, email from ${table} where ref = any($1::text[])`, [refs]);
  return rows as unknown as NameRow[];
};

/** Applies a batch; answers the orders whose page changed, or nothing when a name changed (it may show on any page). */
const apply = async (events: readonly ProjectedEvent[], query: Query, table: TableName): Promise<Changed | void> => {
  if (events.length === 0) return [];
  const t = (base: Base) => table(ORDER_DETAIL_TABLES[base]);
  const needs = batchNeeds(events);
  const [orders, mails, names] = [
    await loadOrders(query, t("orders"), needs.orderIds),
    await loadMails(query, t("mails"), needs.mailIds),
    await loadNames(query, t("names"), needs.nameRefs),
  ];
  const changes = foldBatch(events, { orders, mails, names });

  if (changes.erasedOrders.length > 0) {
    // Rows written by earlier batches, blanked before this batch's rows are written: those were
    // blanked in memory at the delete, and what happened after it in the batch (a provider's
    // bounce report) stands, as it would had it come in a batch of its own.
    await query(
      `update ${t("audit")} set summary = erased_summary, erased_summary = null
        where order_id = any($1::text[]) and erased_summary is not null`,
      [changes.erasedOrders],
    );
    await query(
      `update ${t("orders")} set transaction_id = null, merchant_name = null,
              defence_packs = (select coalesce(jsonb_agg(p || '{"file_name": "", "stored_path": ""}'::jsonb), '[]'::jsonb)
                                 from jsonb_array_elements(defence_packs) p)
        where order_id = any($1::text[])`,
      [changes.erasedOrders],
    );
    await query(
      `update ${t("mails")} set recipient = null, file1 = null, file_path = null, reason = null
        where order_id = any($1::text[]) and (recipient is not null or file1 is not null or file_path is not null or reason is not null)`,
      [changes.erasedOrders],
    );
    // As the fold's ERASED_DOWNLOAD: the time stays.
    await query(
      `update ${t("downloads")} set ip = null, location = null, browser = null, os = null, device = null, device_type = null, file = ''
        where order_id = any($1::text[])`,
      [changes.erasedOrders],
    );
    await query(`update ${t("comments")} set remark = '' where order_id = any($1::text[]) and remark <> ''`, [changes.erasedOrders]);
  }
  await upsert(query, t("orders"), "orders", "order_id", changes.orders satisfies readonly OrderDetailsRow[]);
  await upsert(query, t("mails"), "mails", "mail_id", changes.mails satisfies readonly MailRow[]);
  await insertNew(query, t("downloads"), "downloads", "download_id", changes.downloads satisfies readonly DownloadRow[]);
  await insertNew(query, t("comments"), "comments", "remark_id", changes.comments satisfies readonly CommentRow[]);
  await insertNew(query, t("audit"), "audit", "stream, stream_position", changes.audit satisfies readonly AuditRow[]);
  await upsert(query, t("names"), "names", "ref", changes.names satisfies readonly NameRow[]);
  if (changes.names.length > 0) return;
  const rows = [changes.orders, changes.mails, changes.downloads, changes.comments, changes.audit];
  return [...new Set([...changes.erasedOrders, ...rows.flatMap((rows) => rows.flatMap((row) => row.order_id ?? []))])];
};

export const orderDetailsProjection: Projection = {
  name: "order_details",
  // 2: audit_timeline.request_ip (the Audit tab's "from which IP"), and order_details.stream_position
  // moved by every order event (the page's version). The engine rebuilds beside v1 and switches (ADR 0006).
  // 3: a permanent delete blanks comment_history.remark and the file names (order_details,
  // mail_history, download_history, audit_timeline sentences); the rebuild re-folds the orders
  // erased before, whose rows kept them.
  // 4: mail_history follows each mail's own stream (mail-{mailId}, DESIGN §8): queued, sent,
  // delivered, bounced, complained, failed (with retry_at), unknown, Retry asked; the order's
  // version stays the order stream's.
  // 5 (issue 25): file names, transaction details, devices and providers' answers come from the
  // events' sealed parts; a permanent delete blanks them all, and audit lines keep their erased
  // sentence (audit_timeline.erased_summary) instead of having file names searched and replaced.
  version: 5,
  tables: Object.values(ORDER_DETAIL_TABLES),
  migrate,
  apply,
};
