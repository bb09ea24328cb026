import type { BacklogFolder, BacklogRow, DashboardDay, MailHealth, MailTrouble, MemberDay, SentHour } from "@etd/contract";
import { BACKLOG_FOLDERS } from "@etd/contract";
import type { Query } from "@etd/event-store";
import type { OrderStatus } from "@etd/events";
import { backlogSql, DASHBOARD_TABLES, hourOf, MAIL_TROUBLE_SQL, type MailTroubleKind } from "./dashboard-projection.ts";

/*
 * Reads of the dashboard read model (issue 27), through its views. The whole dashboard is one
 * statement (one round trip, one snapshot), and each figure in it reads the tallies the projection
 * keeps plus at most an hour's rows beside them, never the working orders or the day's uploads one
 * by one (P14). `staffId` narrows a figure to one member (the caller, when they may not see the
 * team); absent, it is the team's (the tallies' scope '').
 */

const {
  orders: ORDERS,
  uploads: UPLOADS,
  open: OPEN,
  mails: MAILS,
  members: MEMBERS,
  backlogTotal: BACKLOG_TOTAL,
  backlogHours: BACKLOG_HOURS,
  dueTotal: DUE_TOTAL,
  dueHours: DUE_HOURS,
  uploadHours: UPLOAD_HOURS,
  memberDays: MEMBER_DAYS,
  mailHours: MAIL_HOURS,
} = DASHBOARD_TABLES;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface DashboardAsk {
  readonly now: Date;
  /** One member's figures only. */
  readonly staffId?: string;
}

const startOfUtcDay = (at: Date): number => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
const iso = (ms: number) => new Date(ms).toISOString();

/** The folder of a working order by its status (queue-folders.ts; New and Priority only unassigned and due by today: backlogSql). */
const FOLDER_OF: Readonly<Partial<Record<OrderStatus, BacklogFolder>>> = {
  New: "newOrder",
  Priority: "priorityOrder",
  Pending: "pendingOrder",
  ContactCustomer: "contactCustomerOrder",
  CustomerCalled: "customerCalledOrder",
  Awaiting: "awaitingOrder",
  AwaitingGovt: "awaitingGovtOrder",
};

/**
 * The age boundaries, newest first: now, 1 h, 4 h and 24 h before it. The backlog under each age is
 * the difference of the orders paid after two boundaries; over 24 h, the total less those paid after
 * the last.
 */
const boundariesOf = (now: number) => [now, now - HOUR, now - 4 * HOUR, now - DAY];

/** The parameters every part of the statement shares; `$1` the tallies' scope, `$2` today (UTC). */
const shared = (ask: DashboardAsk) => {
  const now = ask.now.getTime();
  const today = iso(now).slice(0, 10);
  return [ask.staffId ?? "", today] as const;
};

/**
 * Working orders per folder (by status) paid after each age boundary: the hour tallies after the
 * boundary's hour, and the orders of its own hour past it (the backlog index's range). Parameters:
 * `$3` the boundaries, `$4` the hour after each, `$12` the earliest of those (the tallies' range).
 */
const backlogAfterSql = (mine: string) => `select status, i, sum(n) as n from (
    select b.i, h.status, h.n
      from unnest($3::timestamptz[], $4::timestamptz[]) with ordinality as b(t, next, i)
      join ${BACKLOG_HOURS} h on h.scope = $1 and h.paid_hour >= $12::timestamptz and h.paid_hour >= b.next and h.from_day <= $2::date
    union all
    select b.i, o.status, 1
      from unnest($3::timestamptz[], $4::timestamptz[]) with ordinality as b(t, next, i)
      join ${ORDERS} o on ${backlogSql("o", "$2::date")} and o.paid_at > b.t and o.paid_at < b.next ${mine}
  ) after_boundary group by status, i`;

const backlogTotalSql = `select status, sum(n) as n from ${BACKLOG_TOTAL} where scope = $1 and from_day <= $2::date group by status`;

const backlogRows = (totals: readonly { status: string; n: number }[], after: readonly { status: string; i: number; n: number }[]): BacklogRow[] => {
  const total = new Map<string, number>();
  for (const row of totals) total.set(row.status, Number(row.n));
  const paidAfter = new Map<string, number>();
  for (const row of after) paidAfter.set(`${row.status}:${row.i}`, Number(row.n));
  const byFolder = new Map<BacklogFolder, BacklogRow>();
  for (const [status, folder] of Object.entries(FOLDER_OF)) {
    const f = (i: number) => paidAfter.get(`${status}:${i}`) ?? 0;
    byFolder.set(folder, {
      folder,
      underHour: f(2) - f(1),
      oneToFourHours: f(3) - f(2),
      fourToDayHours: f(4) - f(3),
      overDay: (total.get(status) ?? 0) - f(4),
    });
  }
  return BACKLOG_FOLDERS.map((folder) => byFolder.get(folder)!);
};

/**
 * Running clocks: all, those due from the hour after now's (tallies), those due from now to that
 * hour (rows), and those due from now to an hour from now (rows). Overdue is all less those due
 * from now on. Parameters: `$5` now, `$6` the hour after now's, `$7` an hour from now.
 */
const dueSql = (mine: string) => `select
    (select coalesce(sum(n), 0) from ${DUE_TOTAL} where scope = $1) as total,
    (select coalesce(sum(n), 0) from ${DUE_HOURS} where scope = $1 and due_hour >= $6::timestamptz)
      + (select count(*) from ${ORDERS} where due_at >= $5::timestamptz and due_at < $6::timestamptz ${mine}) as later,
    (select count(*) from ${ORDERS} where due_at >= $5::timestamptz and due_at <= $7::timestamptz ${mine}) as soon`;

/** Uploads per hour of today (`$8`..`$9`) and of the same weekday a week before (`$10`..`$11`). */
const sentSql = `select extract(hour from upload_hour at time zone 'UTC')::int as hour, upload_hour >= $8::timestamptz as today, n
  from ${UPLOAD_HOURS}
  where scope = $1
    and ((upload_hour >= $8::timestamptz and upload_hour < $9::timestamptz) or (upload_hour >= $10::timestamptz and upload_hour < $11::timestamptz))`;

/**
 * One line per member: every member not deleted, and anyone deleted who still holds open orders or
 * uploaded today (`$2`), by name. The median is PostgreSQL's percentile_cont's (the mean of the two
 * middle values of an even count): the middle one or two of the day's times through the index, the
 * count known from the day's tally. `$1`: the member whose line alone is read, or '' for the team's.
 */
const membersSql = `with day as (
    select staff_id, processed, within, timed from ${MEMBER_DAYS} where day = $2::date
  ), ids as (
    select staff_id from ${MEMBERS} where not deleted union select staff_id from day union select staff_id from ${OPEN}
  )
  select ids.staff_id, coalesce(m.name, ids.staff_id) as name, coalesce(o.n, 0) as open, coalesce(d.processed, 0) as processed,
         coalesce(d.within, 0) as within,
         case when d.timed > 0 then (
           select avg(middle.assigned_ms) from (
             select u.assigned_ms from ${UPLOADS} u
              where u.staff_id = ids.staff_id and u.uploaded_on = $2::date and u.assigned_ms is not null
              order by u.assigned_ms offset (d.timed - 1) / 2 limit 2 - d.timed % 2
           ) middle
         ) end as median
  from (select * from ids where $1::text = '' or staff_id = $1) ids
    left join ${MEMBERS} m using (staff_id) left join day d using (staff_id) left join ${OPEN} o using (staff_id)`;

const MEMBERS_ORDER = "lower(coalesce(name, staff_id)), staff_id";

const memberDayOf = (row: Record<string, unknown>): MemberDay => ({
  staffId: String(row.staff_id),
  name: String(row.name),
  open: Number(row.open),
  processedToday: Number(row.processed),
  medianAssignedToDocumentMs: row.median === null || row.median === undefined ? null : Math.round(Number(row.median)),
  withinLevel: Number(row.within),
});

const json = (sql: string) => `(select coalesce(json_agg(part), '[]'::json) from (${sql}) part)`;

/** How many order ids each kind of trouble lists. */
const LISTED = 20;

/**
 * Mails asked for in the 24 hours before now: bounced, outcome unknown, not sent an hour after. The
 * mails of each kind asked for after each boundary (`$3`: now, 1 h before, 24 h before; the 4 h one
 * is not used), as the backlog's: the hour tallies after the boundary's hour, and the mails of its
 * own hour past it (the kind's partial index).
 */
const mailAfterSql = `select kind, i, sum(n) as n from (
    select h.kind, b.i, h.n
      from unnest($3::timestamptz[], $4::timestamptz[]) with ordinality as b(t, next, i)
      join ${MAIL_HOURS} h on h.asked_hour >= $12::timestamptz and h.asked_hour >= b.next
    ${Object.entries(MAIL_TROUBLE_SQL)
      .map(
        ([kind, predicate]) => `union all
    select '${kind}', b.i, 1
      from unnest($3::timestamptz[], $4::timestamptz[]) with ordinality as b(t, next, i)
      join ${MAILS} m on ${predicate} and m.asked_at > b.t and m.asked_at < b.next`,
      )
      .join("\n    ")}
  ) after_boundary group by kind, i`;

/** The orders of a kind's latest mails in its range (`$13` the 24 hours' start, `to` its end). */
const mailOrdersSql = (kind: MailTroubleKind, to: string) => `(select coalesce(array_agg(order_id), '{}') from (
    select order_id from ${MAILS} where ${MAIL_TROUBLE_SQL[kind]} and asked_at > $13::timestamptz and asked_at <= ${to}
    order by asked_at desc, mail_id desc limit ${LISTED}
  ) latest)`;

const mailSql = `select ${json(mailAfterSql)} as after,
    ${mailOrdersSql("bounced", "$5::timestamptz")} as bounced,
    ${mailOrdersSql("unknown", "$5::timestamptz")} as unknown,
    ${mailOrdersSql("unsent", "$14::timestamptz")} as unsent`;

const mailHealthOf = (mail: { after: { kind: string; i: number; n: number }[]; bounced: string[]; unknown: string[]; unsent: string[] }): MailHealth => {
  const after = (kind: MailTroubleKind, i: number) => Number(mail.after.find((row) => row.kind === kind && row.i === i)?.n ?? 0);
  // Boundaries: 1 now, 2 an hour before, 4 a day before.
  const of = (kind: MailTroubleKind, to: number): MailTrouble => ({ count: after(kind, 4) - after(kind, to), orderIds: [...new Set(mail[kind])] });
  return { bounced: of("bounced", 1), outcomeUnknown: of("unknown", 1), notSentAfterHour: of("unsent", 2) };
};

const MEMBER_DAYS_SQL = `select * from (${membersSql}) lines order by ${MEMBERS_ORDER}`;

/** The per-member table alone (its CSV). */
export const memberDays = async (query: Query, ask: DashboardAsk): Promise<MemberDay[]> => {
  const rows = await query(MEMBER_DAYS_SQL, [...shared(ask)], "dashboard-members");
  return rows.map(memberDayOf);
};

/** The whole dashboard as one statement: the team's, or one member's (their rows by assignee, their tallies by scope, no mail health). */
const dashboardSql = (own: boolean): string => {
  const mine = own ? "and assignee_id = $1" : "";
  return `select ${json(backlogTotalSql)} as backlog_total,
            ${json(backlogAfterSql(mine.replace("assignee_id", "o.assignee_id")))} as backlog_after,
            (select row_to_json(due) from (${dueSql(mine)}) due) as due,
            ${json(sentSql)} as sent,
            (select coalesce(json_agg(line order by ${MEMBERS_ORDER}), '[]'::json) from (${membersSql}) line) as members,
            ${own ? "null::json" : `(select row_to_json(mail) from (${mailSql}) mail)`} as mail`;
};
const TEAM_SQL = dashboardSql(false);
const OWN_SQL = dashboardSql(true);

/** The whole dashboard, in one round trip: the team's, or one member's (without the mail health). */
export const dashboardDay = async (query: Query, ask: DashboardAsk): Promise<DashboardDay> => {
  const now = ask.now.getTime();
  const boundaries = boundariesOf(now);
  const nexts = boundaries.map((at) => Date.parse(hourOf(at)) + HOUR);
  const dayStart = startOfUtcDay(ask.now);
  const weekAgo = dayStart - 7 * DAY;
  const own = ask.staffId !== undefined;
  const [row] = await query(
    own ? OWN_SQL : TEAM_SQL,
    [
      ...shared(ask),
      boundaries.map(iso),
      nexts.map(iso),
      iso(now),
      iso(Date.parse(hourOf(now)) + HOUR),
      iso(now + HOUR),
      iso(dayStart),
      iso(dayStart + DAY),
      iso(weekAgo),
      iso(weekAgo + DAY),
      iso(Math.min(...nexts)),
      ...(own ? [] : [iso(now - DAY), iso(now - HOUR)]),
    ],
    // Prepared once per connection: the plan is made once, not at every call (P14).
    own ? "dashboard-own" : "dashboard-team",
  );
  if (row === undefined) throw new Error("the dashboard's statement returned no row");
  const due = row.due as { total: number; later: number; soon: number };
  const sent = row.sent as { hour: number; today: boolean; n: number }[];
  const sentPerHour: SentHour[] = Array.from({ length: 24 }, (_, hour) => ({
    hour,
    today: Number(sent.find((s) => s.hour === hour && s.today)?.n ?? 0),
    lastWeek: Number(sent.find((s) => s.hour === hour && !s.today)?.n ?? 0),
  }));
  return {
    asOf: ask.now.toISOString(),
    scope: own ? "own" : "team",
    backlog: backlogRows(row.backlog_total as { status: string; n: number }[], row.backlog_after as { status: string; i: number; n: number }[]),
    overdue: Number(due.total) - Number(due.later),
    dueWithinHour: Number(due.soon),
    sentPerHour,
    members: (row.members as Record<string, unknown>[]).map(memberDayOf),
    mail: own ? null : mailHealthOf(row.mail as Parameters<typeof mailHealthOf>[0]),
  };
};
