import { lazy, Suspense } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import {
  BACKLOG_AGE_LABELS,
  BACKLOG_AGES,
  DUE_FOLDERS,
  easternTime,
  MEMBER_DAY_COLUMNS,
  type BacklogRow,
  type DashboardDay,
  type DueFilter,
  type MailHealth,
  type MailTrouble,
  type QueueKey,
  type SentHour,
} from "@etd/contract";
import { DASHBOARD } from "@etd/contract/endpoints";
import { ServerRefusal, TableScroll } from "../../../components/ui/admin-page.tsx";
import { ExportCsvLink } from "../../../components/ui/export-link.tsx";
import { endpointQuery } from "../../../lib/endpoint-query.ts";
import { folderEntryOf } from "../../../lib/menu-entries.ts";
import { sessionAtom } from "../../../lib/session.ts";
import type { SentHourPoint } from "./sent-per-hour-chart.tsx";
import "../../../styles/dashboard.css";

/*
 * The day at a glance (issue 27), under the dashboard's tiles: the server's answer as it stands,
 * whose figures they are (an Admin or Manager sees the team, anyone else their own line: the
 * server decides), and when they were counted. Live: the query is keyed by the dashboard read
 * model, so the live feed refetches it whenever that moves; and once a minute besides, because
 * "overdue", "due within the hour" and the backlog's ages move on with the clock alone.
 */

const MINUTE = 60_000;

const dashboardQuery = () => endpointQuery(DASHBOARD.getDashboard, {});

// The chart library is fetched with the chart only, after the figures are on screen.
const SentPerHourChart = lazy(() => import("./sent-per-hour-chart.tsx").then((module) => ({ default: module.SentPerHourChart })));

/** A folder's label as the tiles and the menu name it. */
const folderLabel = (key: QueueKey): string => folderEntryOf(key)?.label ?? key;

/** "09:00": the hours are UTC, as the queues' dates are (ADR 0036). */
const hourText = (hour: number): string => `${String(hour).padStart(2, "0")}:00`;

const numberCell = (value: number) => <td className="admin-number">{value}</td>;

const BacklogTable = ({ rows }: { rows: readonly BacklogRow[] }) => (
  <section className="card dashboard-panel" aria-labelledby="dashboard-backlog">
    <h3 id="dashboard-backlog" className="card-title">
      Backlog by age
    </h3>
    <p className="dashboard-note">Orders in each working folder, by the time since they were paid.</p>
    <TableScroll label="Backlog by age">
      <table className="data-table dashboard-table" aria-labelledby="dashboard-backlog">
        <thead>
          <tr>
            <th scope="col">Folder</th>
            {BACKLOG_AGES.map((age) => (
              <th key={age} scope="col" className="admin-number">
                {BACKLOG_AGE_LABELS[age]}
              </th>
            ))}
            <th scope="col" className="admin-number">
              Total
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const entry = folderEntryOf(row.folder);
            return (
              <tr key={row.folder} data-folder={row.folder}>
                <th scope="row">{entry ? <Link to={entry.to}>{entry.label}</Link> : row.folder}</th>
                {BACKLOG_AGES.map((age) => (
                  <td key={age} className="admin-number">
                    {row[age]}
                  </td>
                ))}
                {numberCell(BACKLOG_AGES.reduce((sum, age) => sum + row[age], 0))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  </section>
);

/** The queues whose screens filter by due time, and their addresses. */
const DUE_QUEUE_PATHS = {
  newOrder: "/admin/recent-order",
  priorityOrder: "/admin/priority-order",
  pendingOrder: "/admin/pending-order",
  contactCustomerOrder: "/admin/contact-customer",
  customerCalledOrder: "/admin/called",
  myOrder: "/admin/my-order",
} as const;
type DueQueue = keyof typeof DUE_QUEUE_PATHS;

const isDueQueue = (key: QueueKey): key is DueQueue => key in DUE_QUEUE_PATHS;

/**
 * Where "overdue" and "due within the hour" lead. A member's own figures count the running clocks
 * of the orders assigned to them: exactly their My Orders under the same filter. The team's count
 * every running clock, and no one queue lists them all: the folders where a clock runs do,
 * together (DUE_FOLDERS), so each is offered, the member's own My Orders left out as not the team's.
 */
const dueQueuesFor = (scope: DashboardDay["scope"]): readonly DueQueue[] =>
  DUE_FOLDERS.filter(isDueQueue).filter((key) => (scope === "own" ? key === "myOrder" : key !== "myOrder"));

const DueFigure = ({ id, label, count, filter, scope }: { id: string; label: string; count: number; filter: DueFilter; scope: DashboardDay["scope"] }) => (
  <section className="card dashboard-figure" aria-labelledby={id} data-due={filter}>
    <h3 id={id} className="dashboard-figure-label">
      {label}
    </h3>
    <p className="dashboard-figure-count">{count}</p>
    <p className="dashboard-figure-links">
      <span>Open in </span>
      {dueQueuesFor(scope).map((key, index, all) => (
        <span key={key}>
          <Link to={DUE_QUEUE_PATHS[key]} search={{ due: filter }} aria-label={`${label}: ${folderLabel(key)}`}>
            {folderLabel(key)}
          </Link>
          {index < all.length - 1 ? ", " : null}
        </span>
      ))}
    </p>
  </section>
);

const sentPoints = (hours: readonly SentHour[]): SentHourPoint[] => hours.map((hour) => ({ hour: hourText(hour.hour), today: hour.today, lastWeek: hour.lastWeek }));

const SentPerHour = ({ hours, scope }: { hours: readonly SentHour[]; scope: DashboardDay["scope"] }) => {
  const points = sentPoints(hours);
  const today = hours.reduce((sum, hour) => sum + hour.today, 0);
  const lastWeek = hours.reduce((sum, hour) => sum + hour.lastWeek, 0);
  const whose = scope === "team" ? "by the team" : "by you";
  const title = "Documents sent per hour, today and the same weekday last week";
  const description = `Documents uploaded ${whose} in each hour (UTC): ${today} today so far, ${lastWeek} on the same weekday last week. Bars: today; dashed line: last week.`;
  return (
    <section className="card dashboard-panel" aria-labelledby="dashboard-sent">
      <h3 id="dashboard-sent" className="card-title">
        Documents sent per hour
      </h3>
      <figure className="dashboard-chart" aria-labelledby="dashboard-sent-caption">
        <figcaption id="dashboard-sent-caption" className="dashboard-note">
          {description}
        </figcaption>
        <div className="dashboard-chart-area">
          <Suspense fallback={<p className="dashboard-note">Loading the chart…</p>}>
            <SentPerHourChart points={points} title={title} description={description} />
          </Suspense>
        </div>
      </figure>
      <details className="dashboard-numbers">
        <summary>Show the numbers</summary>
        <TableScroll label="Documents sent per hour, the numbers">
          <table className="data-table dashboard-table" aria-label="Documents sent per hour (UTC)">
            <thead>
              <tr>
                <th scope="col">Hour (UTC)</th>
                <th scope="col" className="admin-number">
                  Today
                </th>
                <th scope="col" className="admin-number">
                  Same weekday last week
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.hour}>
                  <th scope="row">{point.hour}</th>
                  {numberCell(point.today)}
                  {numberCell(point.lastWeek)}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </details>
    </section>
  );
};

const MemberTable = ({ day }: { day: DashboardDay }) => (
  <section className="card dashboard-panel" aria-labelledby="dashboard-members">
    <div className="dashboard-panel-header">
      <h3 id="dashboard-members" className="card-title">
        {day.scope === "team" ? "Per member, today" : "Your line, today"}
      </h3>
      <ExportCsvLink endpoint={DASHBOARD.exportDashboardMembers} query={undefined} />
    </div>
    <TableScroll label="Per member, today">
      <table className="data-table dashboard-table" aria-labelledby="dashboard-members">
        <thead>
          <tr>
            {MEMBER_DAY_COLUMNS.map((column, index) => (
              <th key={column.header} scope="col" className={index === 0 ? undefined : "admin-number"}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {day.members.map((member) => (
            <tr key={member.staffId}>
              {MEMBER_DAY_COLUMNS.map((column, index) =>
                index === 0 ? (
                  <th key={column.header} scope="row">
                    {column.cell(member)}
                  </th>
                ) : (
                  <td key={column.header} className="admin-number">
                    {column.cell(member)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  </section>
);

const MAIL_TROUBLES: readonly { readonly kind: keyof MailHealth; readonly label: string }[] = [
  { kind: "bounced", label: "Bounced" },
  { kind: "outcomeUnknown", label: "Outcome unknown" },
  { kind: "notSentAfterHour", label: "Not sent after an hour" },
];

const TroubleOrders = ({ trouble }: { trouble: MailTrouble }) =>
  trouble.orderIds.length === 0 ? null : (
    <>
      <ul className="dashboard-orders">
        {trouble.orderIds.map((orderId) => (
          <li key={orderId}>
            <Link to="/admin/view-order/$orderId" params={{ orderId }}>
              {orderId}
            </Link>
          </li>
        ))}
      </ul>
      {trouble.count > trouble.orderIds.length ? <p className="dashboard-note">The latest {trouble.orderIds.length} orders are listed.</p> : null}
    </>
  );

const MailHealthPanel = ({ mail }: { mail: MailHealth }) => (
  <section className="card dashboard-panel" aria-labelledby="dashboard-mail">
    <h3 id="dashboard-mail" className="card-title">
      Mail health
    </h3>
    <p className="dashboard-note">Mails asked for in the last 24 hours that are in trouble, with their orders.</p>
    <dl className="dashboard-mail">
      {MAIL_TROUBLES.map(({ kind, label }) => (
        <div key={kind} className="dashboard-mail-row" data-mail={kind}>
          <dt>{label}</dt>
          <dd>
            <span className="dashboard-mail-count">{mail[kind].count}</span>
            <TroubleOrders trouble={mail[kind]} />
          </dd>
        </div>
      ))}
    </dl>
  </section>
);

export const DayAtAGlance = () => {
  const session = useAtomValue(sessionAtom);
  const query = useQuery({ ...dashboardQuery(), refetchInterval: MINUTE });
  const answer = query.data;
  const heading = (text: string) => (
    <h2 id="dashboard-day" className="dashboard-day-title">
      {text}
    </h2>
  );
  if (!answer)
    return (
      <section className="dashboard-day" aria-labelledby="dashboard-day" aria-busy="true">
        {heading("The day at a glance")}
        <p className="dashboard-note" role="status">
          Loading the day's figures…
        </p>
      </section>
    );
  if (answer.status !== 1 || !answer.data)
    return (
      <section className="dashboard-day" aria-labelledby="dashboard-day">
        {heading("The day at a glance")}
        <ServerRefusal answer={answer} />
      </section>
    );
  const day = answer.data;
  return (
    <section className="dashboard-day" aria-labelledby="dashboard-day" data-scope={day.scope}>
      {heading(day.scope === "team" ? "The day at a glance: the whole team" : `The day at a glance: your own figures${session ? `, ${session.name}` : ""}`)}
      <p className="dashboard-note dashboard-as-of">
        As of <time dateTime={day.asOf}>{easternTime(day.asOf)}</time>; hours and days are UTC.
      </p>
      <div className="dashboard-figures">
        <DueFigure id="dashboard-overdue" label="Overdue" count={day.overdue} filter="overdue" scope={day.scope} />
        <DueFigure id="dashboard-due-soon" label="Due within the hour" count={day.dueWithinHour} filter="within-hour" scope={day.scope} />
      </div>
      <BacklogTable rows={day.backlog} />
      <SentPerHour hours={day.sentPerHour} scope={day.scope} />
      <MemberTable day={day} />
      {day.mail ? <MailHealthPanel mail={day.mail} /> : null}
    </section>
  );
};
