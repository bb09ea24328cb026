import type { BacklogRow, DashboardDay, MailHealth, MailTrouble, MemberDay, SentHour } from "@etd/contract";
import { BACKLOG_FOLDERS } from "@etd/contract";
import type { Query } from "@etd/event-store";
import { BACKLOG_STATUSES, DASHBOARD_TABLES } from "./dashboard-projection.ts";

/*
 * Reads of the dashboard read model (issue 27), through its views. Each is an index range over a
 * day, an hour or the working orders, never a count of the log. `staffId` narrows a figure to one
 * member (the caller, when they may not see the team); absent, it is the team's.
 */

const { orders: ORDERS, uploads: UPLOADS, open: OPEN, mails: MAILS, members: MEMBERS } = DASHBOARD_TABLES;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface DashboardAsk {
  readonly now: Date;
  /** One member's figures only. */
  readonly staffId?: string;
}

const startOfUtcDay = (at: Date): number => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
const iso = (ms: number) => new Date(ms).toISOString();

const STATUS_LIST = BACKLOG_STATUSES.map((status) => `'${status}'`).join(", ");

/** The folder of a working order (queue-folders.ts isInFolder): New and Priority only unassigned and due by today. */
const FOLDER_SQL = `case
  when status = 'New' then case when assignee_id is null and processing_date <= $2::date then 'newOrder' end
  when status = 'Priority' then case when assignee_id is null and processing_date <= $2::date then 'priorityOrder' end
  when status = 'Pending' then 'pendingOrder'
  when status = 'ContactCustomer' then 'contactCustomerOrder'
  when status = 'CustomerCalled' then 'customerCalledOrder'
  when status = 'Awaiting' then 'awaitingOrder'
  when status = 'AwaitingGovt' then 'awaitingGovtOrder'
end`;

/** Working orders per folder by age since payment: [0, 1 h), [1 h, 4 h), [4 h, 24 h), 24 h and over. */
export const backlogByAge = async (query: Query, ask: DashboardAsk): Promise<BacklogRow[]> => {
  const now = ask.now.getTime();
  const today = iso(now).slice(0, 10);
  const mine = ask.staffId === undefined ? "" : "and assignee_id = $6";
  const rows = await query(
    `select folder, count(*) filter (where paid_at > $3) as u1, count(*) filter (where paid_at <= $3 and paid_at > $4) as u4,
            count(*) filter (where paid_at <= $4 and paid_at > $5) as u24, count(*) filter (where paid_at <= $5) as over
     from (select ${FOLDER_SQL} as folder, paid_at from ${ORDERS} where status in (${STATUS_LIST}) and paid_at <= $1 ${mine}) o
     where folder is not null group by folder`,
    [iso(now), today, iso(now - HOUR), iso(now - 4 * HOUR), iso(now - DAY), ...(ask.staffId === undefined ? [] : [ask.staffId])],
  );
  const byFolder = new Map(rows.map((row) => [String(row.folder), row]));
  return BACKLOG_FOLDERS.map((folder) => {
    const row = byFolder.get(folder);
    return {
      folder,
      underHour: Number(row?.u1 ?? 0),
      oneToFourHours: Number(row?.u4 ?? 0),
      fourToDayHours: Number(row?.u24 ?? 0),
      overDay: Number(row?.over ?? 0),
    };
  });
};

/** Running clocks past their due time (due before now), and due from now to an hour from now. */
export const dueCounts = async (query: Query, ask: DashboardAsk): Promise<{ overdue: number; dueWithinHour: number }> => {
  const now = ask.now.getTime();
  const mine = ask.staffId === undefined ? "" : "and assignee_id = $3";
  const [row] = await query(
    `select count(*) filter (where due_at < $1) as overdue, count(*) filter (where due_at >= $1) as soon
     from ${ORDERS} where due_at is not null and due_at <= $2 ${mine}`,
    [iso(now), iso(now + HOUR), ...(ask.staffId === undefined ? [] : [ask.staffId])],
  );
  return { overdue: Number(row?.overdue ?? 0), dueWithinHour: Number(row?.soon ?? 0) };
};

/** Documents uploaded per UTC hour of today, and of the same weekday a week before. */
export const sentPerHour = async (query: Query, ask: DashboardAsk): Promise<SentHour[]> => {
  const dayStart = startOfUtcDay(ask.now);
  const weekAgo = dayStart - 7 * DAY;
  const mine = ask.staffId === undefined ? "" : "and staff_id = $5";
  const rows = await query(
    `select extract(hour from uploaded_at at time zone 'UTC')::int as hour,
            count(*) filter (where uploaded_at >= $1) as today, count(*) filter (where uploaded_at < $1) as last_week
     from ${UPLOADS}
     where ((uploaded_at >= $1 and uploaded_at < $2) or (uploaded_at >= $3 and uploaded_at < $4)) ${mine}
     group by 1`,
    [iso(dayStart), iso(dayStart + DAY), iso(weekAgo), iso(weekAgo + DAY), ...(ask.staffId === undefined ? [] : [ask.staffId])],
  );
  const byHour = new Map(rows.map((row) => [Number(row.hour), row]));
  return Array.from({ length: 24 }, (_, hour) => ({ hour, today: Number(byHour.get(hour)?.today ?? 0), lastWeek: Number(byHour.get(hour)?.last_week ?? 0) }));
};

/**
 * One line per member: every member not deleted, and anyone deleted who still holds open orders or
 * uploaded today, by name. The median is PostgreSQL's percentile_cont (the mean of the two middle
 * values of an even count).
 */
export const memberDays = async (query: Query, ask: DashboardAsk): Promise<MemberDay[]> => {
  const dayStart = startOfUtcDay(ask.now);
  const mine = ask.staffId === undefined ? "" : "where staff_id = $3";
  const rows = await query(
    `with day as (
       select staff_id, count(*) as processed, count(*) filter (where within_level) as within,
              percentile_cont(0.5) within group (order by assigned_ms) as median
       from ${UPLOADS} where uploaded_at >= $1 and uploaded_at < $2 group by staff_id
     ), ids as (
       select staff_id from ${MEMBERS} where not deleted union select staff_id from day union select staff_id from ${OPEN}
     )
     select ids.staff_id, coalesce(m.name, ids.staff_id) as name, coalesce(o.n, 0) as open, coalesce(d.processed, 0) as processed,
            coalesce(d.within, 0) as within, d.median
     from (select * from ids ${mine}) ids
       left join ${MEMBERS} m using (staff_id) left join day d using (staff_id) left join ${OPEN} o using (staff_id)
     order by lower(coalesce(m.name, ids.staff_id)), ids.staff_id`,
    [iso(dayStart), iso(dayStart + DAY), ...(ask.staffId === undefined ? [] : [ask.staffId])],
  );
  return rows.map((row) => ({
    staffId: String(row.staff_id),
    name: String(row.name),
    open: Number(row.open),
    processedToday: Number(row.processed),
    medianAssignedToDocumentMs: row.median === null || row.median === undefined ? null : Math.round(Number(row.median)),
    withinLevel: Number(row.within),
  }));
};

/** How many order ids each kind of trouble lists. */
const LISTED = 20;

/** Mails asked for in the 24 hours before now: bounced, outcome unknown, not sent an hour after. */
export const mailHealth = async (query: Query, ask: Pick<DashboardAsk, "now">): Promise<MailHealth> => {
  const now = ask.now.getTime();
  const rows = await query(
    `select kind, count(*) as n, (array_agg(order_id order by asked_at desc, mail_id desc))[1:${LISTED}] as orders from (
       select case when stage = 'bounced' then 'bounced' when stage = 'unknown' then 'unknown'
                   when not sent and asked_at <= $2 then 'unsent' end as kind, order_id, asked_at, mail_id
       from ${MAILS} where asked_at > $1 and asked_at <= $3
     ) m where kind is not null group by kind`,
    [iso(now - DAY), iso(now - HOUR), iso(now)],
  );
  const of = (kind: string): MailTrouble => {
    const row = rows.find((r) => r.kind === kind);
    return { count: Number(row?.n ?? 0), orderIds: [...new Set((row?.orders as string[] | undefined) ?? [])] };
  };
  return { bounced: of("bounced"), outcomeUnknown: of("unknown"), notSentAfterHour: of("unsent") };
};

/** The whole dashboard: the team's, or one member's (without the mail health). */
export const dashboardDay = async (query: Query, ask: DashboardAsk): Promise<DashboardDay> => {
  const [backlog, due, sent, members, mail] = [
    await backlogByAge(query, ask),
    await dueCounts(query, ask),
    await sentPerHour(query, ask),
    await memberDays(query, ask),
    ask.staffId === undefined ? await mailHealth(query, ask) : null,
  ];
  return { asOf: ask.now.toISOString(), scope: ask.staffId === undefined ? "team" : "own", backlog, ...due, sentPerHour: sent, members, mail };
};
