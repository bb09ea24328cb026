import type { Query } from "@etd/event-store";
import {
  advanceClock,
  isMailRequestType,
  policyInForce,
  startClock,
  statusAfter,
  usedMsAt,
  dueAt,
  stageAfter,
  type AnyEvent,
  type ClockFold,
  type OrderEvent,
  type OrderStatus,
  type ServiceLevelPolicySet,
  STATUS_OR_CLOCK_EVENTS,
} from "@etd/events";
import type { ProjectedEvent, Projection, TableName } from "../engine/projection.ts";
import { rowTable } from "../engine/row-table.ts";

/*
 * The day at a glance (issue 27): what the dashboard needs that no other read model holds, folded
 * from the log itself (a read model reads only its own tables and the events).
 *
 * - dashboard_orders: one row per order with its folder facts, its payment time (the backlog's
 *   age counts from it), its service-level clock (the fold of service-clock.ts, so its due time is
 *   the queues' own) and its latest assignment.
 * - dashboard_uploads: one row per document uploaded: when, by whom, whether the order's clock was
 *   within its allowance at that moment, and the time since the order's latest assignment (the
 *   median's values; the counts are tallies, below).
 * - dashboard_open: open assigned orders per member (My Orders' rule), kept by deltas so the
 *   per-member table never counts the orders table.
 * - dashboard_mails: one row per mail asked for (its id is the asking event's): when it was asked,
 *   where it stands (mail-events.ts's stageAfter), and whether a provider ever accepted it.
 * - dashboard_members, dashboard_policies: names and roles of the team; the service-level policies
 *   (the clock of an order paid takes the one in force then).
 *
 * Tallies (P14: the dashboard's reads are bounded by the hours they show, not by the history): the
 * backlog and the running clocks are a large share of all orders, and a day's uploads thousands of
 * rows, so their figures are counts kept by deltas, never counts of rows. Each is kept for the team
 * (scope '') and for the member concerned (scope = their id), so one member's line reads as little.
 * - dashboard_backlog_total / _hours: working orders in a folder (by status; New and Priority only
 *   unassigned, from their processing date), in all and per hour of payment. Orders paid after a
 *   moment are the hours after its hour plus the rows of its own hour past it (an index range of at
 *   most an hour's payments); those paid before it are the total less those after.
 * - dashboard_due_total / _hours: running clocks, in all and per hour of their due time, the same way.
 * - dashboard_upload_hours: documents uploaded per hour; dashboard_member_days: per member and UTC
 *   day, documents uploaded, how many within the service level, how many with an assignment time
 *   (the median reads the middle of those through an index, never the day's rows).
 * - dashboard_mail_hours: mails in trouble (MAIL_TROUBLE_SQL) per kind and hour they were asked
 *   for; the orders each kind lists are the latest of its partial index.
 */

export const DASHBOARD_TABLES = {
  orders: "dashboard_orders",
  uploads: "dashboard_uploads",
  open: "dashboard_open",
  mails: "dashboard_mails",
  members: "dashboard_members",
  policies: "dashboard_policies",
  backlogTotal: "dashboard_backlog_total",
  backlogHours: "dashboard_backlog_hours",
  dueTotal: "dashboard_due_total",
  dueHours: "dashboard_due_hours",
  uploadHours: "dashboard_upload_hours",
  memberDays: "dashboard_member_days",
  mailHours: "dashboard_mail_hours",
} as const;

/**
 * A mail's trouble, the mail health's kinds: bounced, its outcome unknown, or never sent (the mail
 * health counts that one only an hour after it was asked for). Each has its partial index.
 */
export const MAIL_TROUBLE_SQL = {
  bounced: "stage = 'bounced'",
  unknown: "stage = 'unknown'",
  unsent: "not sent and stage not in ('bounced', 'unknown')",
} as const;
export type MailTroubleKind = keyof typeof MAIL_TROUBLE_SQL;

/** A working order outside New and Priority is in its folder whatever its processing date: from -infinity. */
const ANY_DAY = "-infinity";

/** The statuses that leave My Orders (queue-folders.ts CLOSED_STATUSES says the same for the queues). */
export const CLOSED: readonly OrderStatus[] = ["Completed", "CompletedRefund", "Deleted"];

export interface DashboardOrder {
  readonly orderId: string;
  readonly status: OrderStatus;
  /** YYYY-MM-DD */
  readonly processingDate: string;
  /** The OrderPlaced event's time: the moment the order was paid (ADR 0036). */
  readonly paidAt: string;
  readonly assigneeId: string | null;
  readonly assignedAt: string | null;
  /** The clock fold (ClockFold) as JSON. */
  readonly clock: string;
}

const ORDERS = rowTable<DashboardOrder>()({
  order_id: { type: "text", field: "orderId", required: true },
  status: { type: "text", field: "status", required: true },
  processing_date: { type: "date", field: "processingDate", required: true },
  paid_at: { type: "timestamptz", field: "paidAt", required: true },
  assignee_id: { type: "text", field: "assigneeId" },
  assigned_at: { type: "timestamptz", field: "assignedAt" },
  clock: { type: "text", field: "clock", required: true },
  // The clock's due time while it runs (none while paused, stopped or met): "overdue" and "due
  // within the hour" are a range over it.
  due_at: { type: "timestamptz", derive: (row: DashboardOrder) => dueAt(JSON.parse(row.clock) as ClockFold) ?? null },
});

/**
 * The version of the dashboard read model (engine/projection.ts): raise it whenever a table or the
 * fold changes, and the engine rebuilds it beside the live one.
 */
const VERSION = 2;

/** The working statuses whose orders are a folder's backlog (the rest are finished). */
export const BACKLOG_STATUSES: readonly OrderStatus[] = ["New", "Priority", "Pending", "Awaiting", "AwaitingGovt", "ContactCustomer", "CustomerCalled"];

/** The statuses whose orders are in their folder only unassigned and from their processing date (queue-folders.ts isInFolder). */
const INTAKE_STATUSES: readonly OrderStatus[] = ["New", "Priority"];

/** The SQL predicate of a working order in its folder (the backlog index's, so a range over it is that index's). */
export const backlogSql = (alias: string, today: string): string =>
  `${alias}.status in (${BACKLOG_STATUSES.map((status) => `'${status}'`).join(", ")})
   and (${alias}.status not in (${INTAKE_STATUSES.map((status) => `'${status}'`).join(", ")}) or (${alias}.assignee_id is null and ${alias}.processing_date <= ${today}))`;

const HOUR_MS = 3_600_000;
/** The UTC hour an instant falls in, as ISO 8601. */
export const hourOf = (at: string | number): string => {
  const ms = typeof at === "number" ? at : Date.parse(at);
  return new Date(ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS)).toISOString();
};

const migrate = async (query: Query, table: TableName): Promise<void> => {
  const t = (base: keyof typeof DASHBOARD_TABLES) => table(DASHBOARD_TABLES[base]);
  const orders = t("orders");
  await query(`create table ${orders} (
    ${ORDERS.ddl}
  )`);
  const backlog = `status in (${BACKLOG_STATUSES.map((status) => `'${status}'`).join(", ")})`;
  // The backlog's rows beside its tallies: the working orders paid within one hour, an index-only range.
  await query(`create index ${orders}_backlog on ${orders} (paid_at) include (status, assignee_id, processing_date) where ${backlog}`);
  // A member's own.
  await query(`create index ${orders}_mine on ${orders} (assignee_id, paid_at) include (status, processing_date) where ${backlog} and assignee_id is not null`);
  // Overdue and due within the hour: a range over the running clocks' due times.
  await query(`create index ${orders}_due on ${orders} (due_at) include (assignee_id) where due_at is not null`);
  await query(`create table ${t("uploads")} (
    event_id text primary key,
    order_id text not null,
    staff_id text not null,
    uploaded_at timestamptz not null,
    within_level boolean not null,
    assigned_ms bigint,
    uploaded_on date not null
  )`);
  await query(`create table ${t("open")} (staff_id text primary key, n bigint not null)`);
  await query(`create table ${t("mails")} (
    mail_id text primary key,
    order_id text not null,
    asked_at timestamptz not null,
    stage text not null,
    sent boolean not null
  )`);
  await query(`create index ${t("mails")}_asked on ${t("mails")} (asked_at) include (stage, sent, order_id)`);
  for (const [kind, predicate] of Object.entries(MAIL_TROUBLE_SQL)) {
    await query(`create index ${t("mails")}_${kind} on ${t("mails")} (asked_at desc, mail_id desc) include (order_id) where ${predicate}`);
  }
  await query(`create table ${t("mailHours")} (asked_hour timestamptz not null, kind text not null, n bigint not null, primary key (asked_hour, kind))`);
  await query(`create table ${t("members")} (
    staff_id text primary key,
    name text not null,
    role text not null,
    deleted boolean not null
  )`);
  await query(`create table ${t("policies")} (version integer primary key, set_at timestamptz not null, terms jsonb not null)`);
  await query(`create table ${t("backlogTotal")} (scope text not null, status text not null, from_day date not null, n bigint not null, primary key (scope, status, from_day))`);
  await query(`create table ${t("backlogHours")} (
    scope text not null, paid_hour timestamptz not null, status text not null, from_day date not null, n bigint not null,
    primary key (scope, paid_hour, status, from_day)
  )`);
  await query(`create table ${t("dueTotal")} (scope text primary key, n bigint not null)`);
  await query(`create table ${t("dueHours")} (scope text not null, due_hour timestamptz not null, n bigint not null, primary key (scope, due_hour))`);
  await query(`create table ${t("uploadHours")} (scope text not null, upload_hour timestamptz not null, n bigint not null, primary key (scope, upload_hour))`);
  await query(`create table ${t("memberDays")} (
    staff_id text not null, day date not null, processed bigint not null, within bigint not null, timed bigint not null,
    primary key (day, staff_id)
  )`);
  // One member's assignment-to-document times of a day, in order: the median is the middle one or two.
  await query(`create index ${t("uploads")}_timed on ${t("uploads")} (staff_id, uploaded_on, assigned_ms) where assigned_ms is not null`);
};

const MAIL_EVENTS: ReadonlySet<AnyEvent["type"]> = new Set([
  "MailQueued",
  "MailSent",
  "MailFailed",
  "MailOutcomeUnknown",
  "MailDelivered",
  "MailBounced",
  "MailComplained",
  "MailRetryRequested",
]);

/** Where a mail stands after one of its events (the order of gravity is mail-events.ts's stageAfter). */
export const MAIL_STAGE_OF = {
  MailQueued: "queued",
  MailSent: "sent",
  MailFailed: "failed",
  MailOutcomeUnknown: "unknown",
  MailDelivered: "delivered",
  MailBounced: "bounced",
  MailComplained: "complained",
  MailRetryRequested: "queued",
} as const;

/** A provider accepted or delivered it: the mail was sent. */
export const SENT_STAGES: ReadonlySet<string> = new Set(["sent", "delivered", "bounced", "complained"]);

const isOpen = (order: DashboardOrder | undefined): order is DashboardOrder & { assigneeId: string } =>
  order !== undefined && order.assigneeId !== null && !CLOSED.includes(order.status);

interface Upload {
  readonly event_id: string;
  readonly order_id: string;
  readonly staff_id: string;
  readonly uploaded_at: string;
  readonly within_level: boolean;
  readonly assigned_ms: number | null;
  /** The UTC day of uploaded_at. */
  readonly uploaded_on: string;
}

interface Mail {
  readonly mail_id: string;
  readonly order_id: string;
  readonly asked_at: string;
  readonly stage: string;
  readonly sent: boolean;
}

const loadPolicies = async (query: Query, table: TableName): Promise<ServiceLevelPolicySet[]> => {
  const rows = await query(
    `select terms, to_char(set_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as set_at from ${table(DASHBOARD_TABLES.policies)} order by version`,
  );
  // Only what policyInForce reads: the terms and when they were set.
  return rows.map((row) => ({ data: row.terms, metadata: { occurredAt: row.set_at } }) as unknown as ServiceLevelPolicySet);
};

/** The order after one of its events; `undefined` before it was placed. */
const evolve = (order: DashboardOrder | undefined, event: OrderEvent, policies: readonly ServiceLevelPolicySet[]): DashboardOrder | undefined => {
  if (event.type === "OrderPlaced") {
    if (order !== undefined) return order;
    const paidAt = event.metadata.occurredAt;
    return {
      orderId: event.data.orderId,
      status: statusAfter(event)!,
      processingDate: event.data.processingDate,
      paidAt,
      assigneeId: null,
      assignedAt: null,
      clock: JSON.stringify(startClock(event, policyInForce(policies, paidAt))),
    };
  }
  if (order === undefined) return order;
  const fold = JSON.parse(order.clock) as ClockFold;
  const next = advanceClock(fold, event);
  const clock = next === fold ? order.clock : JSON.stringify(next);
  const status = statusAfter(event) ?? order.status;
  switch (event.type) {
    case "OrderAssigned":
      return { ...order, status, clock, assigneeId: event.data.assignee.id, assignedAt: event.metadata.occurredAt };
    case "OrderMovedToOriginalFolder":
      return { ...order, status, clock, assigneeId: null, assignedAt: null };
    default:
      return status === order.status && clock === order.clock ? order : { ...order, status, clock };
  }
};

const apply = async (events: readonly ProjectedEvent[], query: Query, table: TableName): Promise<void> => {
  const orderIds = new Set<string>();
  const mailIds = new Set<string>();
  let placing = false;
  for (const { event } of events) {
    if (STATUS_OR_CLOCK_EVENTS.has(event.type) && "orderId" in event.data) orderIds.add(event.data.orderId);
    if (event.type === "OrderPlaced") placing = true;
    if (MAIL_EVENTS.has(event.type) && "mailId" in event.data) mailIds.add(event.data.mailId);
  }
  const policies = placing || events.some(({ event }) => event.type === "ServiceLevelPolicySet") ? await loadPolicies(query, table) : [];
  const loaded = orderIds.size === 0 ? [] : await query(`select ${ORDERS.select} from ${table(DASHBOARD_TABLES.orders)} where order_id = any($1::text[])`, [[...orderIds]]);
  const before = new Map(loaded.map((row) => [String(row.order_id), ORDERS.decode(row)]));
  const after = new Map<string, DashboardOrder | undefined>(before);
  const mailRows = mailIds.size === 0 ? [] : await query(`select mail_id, order_id, to_char(asked_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as asked_at, stage, sent
       from ${table(DASHBOARD_TABLES.mails)} where mail_id = any($1::text[])`, [[...mailIds]]);
  const mails = new Map<string, Mail>(mailRows.map((row) => [String(row.mail_id), row as unknown as Mail]));
  const mailsBefore = new Map(mails);
  const changedMails = new Set<string>();
  const uploads: Upload[] = [];
  const members = new Map<string, { name: string; role: string; deleted: boolean }>();
  const newPolicies: ServiceLevelPolicySet[] = [];

  for (const { event, eventId } of events) {
    switch (event.type) {
      case "ServiceLevelPolicySet":
        policies.push(event);
        newPolicies.push(event);
        continue;
      case "StaffMemberAdded":
      case "StaffMemberUpdated":
        members.set(event.data.staffId, { name: event.data.name, role: event.data.role, deleted: false });
        continue;
      case "StaffMemberDeleted": {
        const known = members.get(event.data.staffId);
        members.set(event.data.staffId, { name: known?.name ?? "", role: known?.role ?? "", deleted: true });
        continue;
      }
      default:
        break;
    }
    if (MAIL_EVENTS.has(event.type) && "mailId" in event.data) {
      const mail = mails.get(event.data.mailId);
      if (mail === undefined) continue;
      const stage = stageAfterStep(mail.stage, MAIL_STAGE_OF[event.type as keyof typeof MAIL_STAGE_OF]);
      mails.set(mail.mail_id, { ...mail, stage, sent: mail.sent || SENT_STAGES.has(stage) });
      changedMails.add(mail.mail_id);
      continue;
    }
    if (!STATUS_OR_CLOCK_EVENTS.has(event.type) && !isMailRequestType(event.type)) continue;
    const orderEvent = event as OrderEvent;
    if (!("orderId" in orderEvent.data)) continue;
    const orderId = orderEvent.data.orderId;
    if (isMailRequestType(event.type) && !mails.has(eventId)) {
      mails.set(eventId, { mail_id: eventId, order_id: orderId, asked_at: event.metadata.occurredAt, stage: "asked", sent: false });
      changedMails.add(eventId);
    }
    const previous = after.get(orderId);
    if (orderEvent.type === "DocumentUploaded" && previous !== undefined) {
      const fold = JSON.parse(previous.clock) as ClockFold;
      const at = orderEvent.metadata.occurredAt;
      uploads.push({
        event_id: eventId,
        order_id: orderId,
        staff_id: orderEvent.data.uploadedBy.id,
        uploaded_at: at,
        within_level: usedMsAt(fold, at) <= fold.allowedMs,
        assigned_ms: previous.assignedAt === null ? null : Math.max(0, Date.parse(at) - Date.parse(previous.assignedAt)),
        uploaded_on: new Date(at).toISOString().slice(0, 10),
      });
    }
    if (STATUS_OR_CLOCK_EVENTS.has(event.type)) after.set(orderId, evolve(previous, orderEvent, policies));
  }

  const changed: DashboardOrder[] = [];
  const open = new Map<string, number>();
  const tallies = new Tallies();
  const move = (order: DashboardOrder | undefined, n: number) => {
    if (isOpen(order)) open.set(order.assigneeId, (open.get(order.assigneeId) ?? 0) + n);
    if (order !== undefined) tallies.add(order, n);
  };
  for (const [orderId, order] of after) {
    const old = before.get(orderId);
    if (order === old || order === undefined) continue;
    changed.push(order);
    move(old, -1);
    move(order, 1);
  }
  const t = (base: keyof typeof DASHBOARD_TABLES) => table(DASHBOARD_TABLES[base]);
  if (newPolicies.length > 0) {
    await query(
      `insert into ${t("policies")} (version, set_at, terms) select * from unnest($1::int[], $2::timestamptz[], $3::jsonb[]) on conflict (version) do nothing`,
      [newPolicies.map((p) => p.data.version), newPolicies.map((p) => p.metadata.occurredAt), newPolicies.map((p) => JSON.stringify(p.data))],
    );
  }
  if (changed.length > 0) await query(ORDERS.upsert(t("orders")), [JSON.stringify(changed.map(ORDERS.record))]);
  await tallies.write(query, t);
  if (uploads.length > 0) {
    // The tallies count the rows that went in (a document already recorded counts once).
    await query(
      `with added as (
         insert into ${t("uploads")} (event_id, order_id, staff_id, uploaded_at, within_level, assigned_ms, uploaded_on)
         select * from jsonb_to_recordset($1::jsonb)
           as r(event_id text, order_id text, staff_id text, uploaded_at timestamptz, within_level boolean, assigned_ms bigint, uploaded_on date)
         on conflict (event_id) do nothing
         returning staff_id, uploaded_at, within_level, assigned_ms, uploaded_on
       ), hours as (
         insert into ${t("uploadHours")} as h (scope, upload_hour, n)
         select scope, date_trunc('hour', uploaded_at, 'UTC'), count(*) from added cross join lateral (values (''), (staff_id)) s(scope) group by 1, 2
         on conflict (scope, upload_hour) do update set n = h.n + excluded.n
       )
       insert into ${t("memberDays")} as d (staff_id, day, processed, within, timed)
       select staff_id, uploaded_on, count(*), count(*) filter (where within_level), count(assigned_ms) from added group by 1, 2
       on conflict (day, staff_id) do update
         set processed = d.processed + excluded.processed, within = d.within + excluded.within, timed = d.timed + excluded.timed`,
      [JSON.stringify(uploads)],
    );
  }
  const openDeltas = [...open].filter(([, n]) => n !== 0);
  if (openDeltas.length > 0) {
    await query(
      `insert into ${t("open")} as o (staff_id, n) select * from unnest($1::text[], $2::bigint[])
       on conflict (staff_id) do update set n = o.n + excluded.n`,
      [openDeltas.map(([id]) => id), openDeltas.map(([, n]) => n)],
    );
    await query(`delete from ${t("open")} where n = 0 and staff_id = any($1::text[])`, [openDeltas.map(([id]) => id)]);
  }
  if (changedMails.size > 0) {
    const troubles = new Map<string, number>();
    const move = (mail: Mail | undefined, n: number) => {
      const kind = mail === undefined ? undefined : troubleOf(mail);
      if (mail === undefined || kind === undefined) return;
      const key = JSON.stringify([kind, hourOf(mail.asked_at)]);
      troubles.set(key, (troubles.get(key) ?? 0) + n);
    };
    for (const id of changedMails) {
      move(mailsBefore.get(id), -1);
      move(mails.get(id), 1);
    }
    await addToTally(query, t("mailHours"), [["kind", "text"], ["asked_hour", "timestamptz"]], moved(troubles));
    await query(
      `insert into ${t("mails")} as m select * from jsonb_to_recordset($1::jsonb) as r(mail_id text, order_id text, asked_at timestamptz, stage text, sent boolean)
       on conflict (mail_id) do update set stage = excluded.stage, sent = excluded.sent`,
      [JSON.stringify([...changedMails].map((id) => mails.get(id)))],
    );
  }
  if (members.size > 0) {
    const entries = [...members];
    await query(
      `insert into ${t("members")} as m (staff_id, name, role, deleted) select * from unnest($1::text[], $2::text[], $3::text[], $4::boolean[])
       on conflict (staff_id) do update set
         name = case when excluded.name = '' then m.name else excluded.name end,
         role = case when excluded.role = '' then m.role else excluded.role end,
         deleted = excluded.deleted`,
      [entries.map(([id]) => id), entries.map(([, m]) => m.name), entries.map(([, m]) => m.role), entries.map(([, m]) => m.deleted)],
    );
  }
};

/** The tallies' deltas of one batch: what each order's row before it takes away and after it adds. */
class Tallies {
  private readonly backlogTotal = new Map<string, number>();
  private readonly backlogHours = new Map<string, number>();
  private readonly dueTotal = new Map<string, number>();
  private readonly dueHours = new Map<string, number>();

  add(order: DashboardOrder, n: number): void {
    const bump = (map: Map<string, number>, key: readonly string[]) => {
      const k = JSON.stringify(key);
      map.set(k, (map.get(k) ?? 0) + n);
    };
    const intake = INTAKE_STATUSES.includes(order.status);
    if (BACKLOG_STATUSES.includes(order.status) && !(intake && order.assigneeId !== null)) {
      const fromDay = intake ? order.processingDate : ANY_DAY;
      const paidHour = hourOf(order.paidAt);
      // A member's own backlog is their assigned orders outside New and Priority (those are in a folder unassigned only).
      for (const scope of intake || order.assigneeId === null ? [""] : ["", order.assigneeId]) {
        bump(this.backlogTotal, [scope, order.status, fromDay]);
        bump(this.backlogHours, [scope, paidHour, order.status, fromDay]);
      }
    }
    const due = dueAt(JSON.parse(order.clock) as ClockFold);
    if (due !== undefined) {
      for (const scope of order.assigneeId === null ? [""] : ["", order.assigneeId]) {
        bump(this.dueTotal, [scope]);
        bump(this.dueHours, [scope, hourOf(due)]);
      }
    }
  }

  async write(query: Query, t: (base: keyof typeof DASHBOARD_TABLES) => string): Promise<void> {
    await addToTally(query, t("backlogTotal"), [["scope", "text"], ["status", "text"], ["from_day", "date"]], moved(this.backlogTotal));
    await addToTally(query, t("backlogHours"), [["scope", "text"], ["paid_hour", "timestamptz"], ["status", "text"], ["from_day", "date"]], moved(this.backlogHours));
    await addToTally(query, t("dueTotal"), [["scope", "text"]], moved(this.dueTotal));
    await addToTally(query, t("dueHours"), [["scope", "text"], ["due_hour", "timestamptz"]], moved(this.dueHours));
  }
}

/** A batch's deltas by key (a JSON array), as rows of the key's values then the delta; none that are zero. */
const moved = (deltas: ReadonlyMap<string, number>): (readonly unknown[])[] =>
  [...deltas].filter(([, n]) => n !== 0).map(([key, n]) => [...(JSON.parse(key) as unknown[]), n]);

/**
 * Adds deltas to a tally keyed by `keys` (column and SQL type), and drops the rows they bring to
 * zero, so a tally holds the same rows however the events were batched (none at zero).
 */
const addToTally = async (query: Query, table: string, keys: readonly (readonly [string, string])[], rows: readonly (readonly unknown[])[]): Promise<void> => {
  if (rows.length === 0) return;
  const names = keys.map(([name]) => name).join(", ");
  const deltas = `unnest(${[...keys.map(([, type], i) => `$${i + 1}::${type}[]`), `$${keys.length + 1}::bigint[]`].join(", ")})`;
  const params = [...keys.map((_, i) => i), keys.length].map((i) => rows.map((row) => row[i]));
  await query(`insert into ${table} as x (${names}, n) select * from ${deltas} on conflict (${names}) do update set n = x.n + excluded.n`, params);
  if (rows.some((row) => Number(row[keys.length]) < 0)) {
    await query(`delete from ${table} where n = 0 and (${names}) in (select ${names} from ${deltas} as d(${names}, n))`, params);
  }
};

/** The mail's trouble (MAIL_TROUBLE_SQL, in TypeScript), if any. */
const troubleOf = (mail: Mail): MailTroubleKind | undefined => {
  if (mail.stage === "bounced") return "bounced";
  if (mail.stage === "unknown") return "unknown";
  return mail.sent ? undefined : "unsent";
};

/** "asked" (nothing happened yet) is below every stage the mail's own events record. */
const stageAfterStep = (current: string, next: string): string => (current === "asked" ? next : stageAfter(current, next));

export const dashboardProjection: Projection = {
  name: "dashboard",
  version: VERSION,
  tables: Object.values(DASHBOARD_TABLES),
  migrate,
  apply,
};
