import type { QueueListField } from "@etd/contract";
import type { Query } from "@etd/event-store";
import {
  advanceClock,
  dueAt,
  intakeStatusOf,
  isErased,
  isOrderEvent,
  policyInForce,
  startClock,
  statusAfter,
  type AnyEvent,
  type ClockFold,
  type ClockKind,
  type ClockState,
  type IsoDateTime,
  type LandingDomain,
  type OrderEvent,
  type OrderStatus,
  type ProcessingMode,
  type ServiceLevelPolicySet,
  STATUS_OR_CLOCK_EVENTS,
} from "@etd/events";
import type { Changed, Projection, TableName } from "../engine/projection.ts";
import { isInFolder, QUEUE_KEYS } from "./queue-folders.ts";
import { rowTable } from "../engine/row-table.ts";

/*
 * The queues read model (DESIGN §5, QUEUE-1..7, SHELL-5, ADMIN-3): the row, its tables, and how a
 * batch of events changes them. Its reads are queue-queries.ts.
 *
 * - queue_orders: one row per order with what the lists show, a lowercased search text (trigram
 *   index, QUEUE-2 search) and one index per folder query, so page 1 of every folder is a short
 *   index scan in created_at order.
 * - queue_status_counts: orders per bucket: the status, with ":assigned" added for the odd
 *   assigned New/Priority order (in no folder but history and My Orders). About fifteen rows.
 * - queue_intake_days: unassigned New and Priority orders per processing day. Whether such an
 *   order is New/Priority or Future depends on the day it is asked, so the counts take the
 *   future days from here (a short index range) and subtract them from the bucket's total.
 * - queue_assignee_counts: orders per (assignee, status), for My Orders.
 * - queue_service_levels: every service-level policy set so far (issue 27), so that the clock an
 *   order starts with at OrderPlaced is the one a rebuild, or another process, starts it with.
 *
 * Counts move by deltas (the bucket an order leaves, the one it enters), computed from the rows
 * before and after each batch, so nothing ever counts the orders table.
 */

/*
 * The row: one order as the queues show it, its table, and how each event changes it, so that a
 * new queue column is one place here (and its list field in the contract's queue-columns.ts).
 * Pure: a batch loads the rows it touches, folds its events through `evolveQueueRow` in memory and
 * writes them back (below); the audit replays the same fold for a folder at a moment.
 */

export interface QueueRow {
  readonly orderId: string;
  readonly status: OrderStatus;
  readonly processingMode: ProcessingMode;
  readonly landingDomain: LandingDomain;
  /** YYYY-MM-DD */
  readonly processingDate: string;
  /** ISO 8601 UTC */
  readonly createdAt: string;
  readonly firstName: string | null;
  readonly middleName: string | null;
  readonly lastName: string | null;
  readonly email: string | null;
  /** With its country code ("+63 9171234567"). */
  readonly phoneNumber: string | null;
  /** As the customer typed them; usually YYYY-MM-DD. */
  readonly dateOfDeparture: string | null;
  readonly dateOfTravel: string | null;
  /** As the customer typed it (sealed in OrderPlaced since version 2): gone with the person. */
  readonly citizenship: string | null;
  /** YYYY-MM-DD; kept after "Refunded it". */
  readonly refundDate: string | null;
  readonly assigneeId: string | null;
  readonly assigneeName: string | null;
  /** Permanently deleted: every personal value above is gone. */
  readonly erased: boolean;
  /** The service-level clock (issue 27, ADR 0036): events/service-clock.ts's fold, one field a column. */
  readonly clockPolicyVersion: number;
  readonly clockKind: ClockKind;
  readonly clockAllowedMs: number;
  readonly clockState: ClockState;
  readonly clockUsedMs: number;
  readonly clockSince: IsoDateTime;
  readonly clockCountsFrom: IsoDateTime;
}

/** The clock a row holds. */
export const clockOf = (row: QueueRow): ClockFold => ({
  policyVersion: row.clockPolicyVersion,
  kind: row.clockKind,
  allowedMs: row.clockAllowedMs,
  state: row.clockState,
  usedMs: row.clockUsedMs,
  since: row.clockSince,
  countsFrom: row.clockCountsFrom,
});

const clockFields = (fold: ClockFold) => ({
  clockPolicyVersion: fold.policyVersion,
  clockKind: fold.kind,
  clockAllowedMs: fold.allowedMs,
  clockState: fold.state,
  clockUsedMs: fold.usedMs,
  clockSince: fold.since,
  clockCountsFrom: fold.countsFrom,
});

/** A paused clock's time left (negative once over); none for a clock that runs (its due_at says it), stopped or met. */
const pausedLeftMs = (row: QueueRow): number | null => (row.clockState === "paused" ? row.clockAllowedMs - row.clockUsedMs : null);

/*
 * The queue_orders table: one column a line (engine/row-table.ts), beside the row it holds. The
 * projection loads, decodes and writes rows through it; the lists select the same columns, and
 * `list` names the field of the contract's list row (QUEUE_LIST_FIELDS) each one fills.
 */
export const QUEUE_ORDERS = rowTable<QueueRow, QueueListField>()({
  order_id: { type: "text", field: "orderId", required: true, list: "order_id" },
  process_status: { type: "text", field: "status", required: true, list: "process_status" },
  processing_mode: { type: "text", field: "processingMode", required: true, list: "processing_mode" },
  landing_domain: { type: "text", field: "landingDomain", required: true, list: "landing_domain" },
  processing_date: { type: "date", field: "processingDate", required: true, list: "processing_date" },
  process_month: { type: "text", derive: (row: QueueRow) => processMonthOf(row.processingDate), required: true, list: "process_month" },
  created_at: { type: "timestamptz", field: "createdAt", required: true, list: "created_at" },
  first_name: { type: "text", field: "firstName", list: "first_name" },
  middle_name: { type: "text", field: "middleName", list: "middle_name" },
  last_name: { type: "text", field: "lastName", list: "last_name" },
  email: { type: "text", field: "email", list: "email" },
  phone_number: { type: "text", field: "phoneNumber", list: "phone_number" },
  date_of_departure: { type: "text", field: "dateOfDeparture", list: "date_of_departure" },
  date_of_travel: { type: "text", field: "dateOfTravel", list: "date_of_travel" },
  citizenship: { type: "text", field: "citizenship", list: "citizenship" },
  refund_date: { type: "date", field: "refundDate", list: "refund_date" },
  assignee_id: { type: "text", field: "assigneeId", list: "assign_to_id" },
  assignee_name: { type: "text", field: "assigneeName", list: "assign_to" },
  erased: { type: "boolean", field: "erased", required: true },
  search_text: { type: "text", derive: (row: QueueRow) => searchTextOf(row), required: true },
  clock_policy_version: { type: "integer", field: "clockPolicyVersion", required: true },
  clock_kind: { type: "text", field: "clockKind", required: true },
  clock_allowed_ms: { type: "bigint", field: "clockAllowedMs", required: true },
  clock_state: { type: "text", field: "clockState", required: true, list: "clock_state" },
  clock_used_ms: { type: "bigint", field: "clockUsedMs", required: true },
  clock_since: { type: "timestamptz", field: "clockSince", required: true },
  clock_counts_from: { type: "timestamptz", field: "clockCountsFrom", required: true },
  // When a running clock reaches its allowance: the due sort and filters read it (indexes below).
  due_at: { type: "timestamptz", derive: (row: QueueRow) => dueAt(clockOf(row)) ?? null, list: "due_at" },
  time_left_ms: { type: "bigint", derive: (row: QueueRow) => pausedLeftMs(row), list: "time_left_ms" },
});

/**
 * The version of the queue read model (engine/projection.ts): raise it whenever the row, its
 * table, its fold or the counts change, and the engine rebuilds the read model beside the live one.
 * 2 (issue 25): citizenship comes from OrderPlaced's sealed part and goes with the person on a
 * permanent delete; the rebuild drops it from orders erased before.
 * 3 (issue 27): each order's service-level clock and due_at, and the policies set so far.
 */
export const QUEUE_VERSION = 3;

/**
 * The telephone number with its country code, as the list shows it and the chat link needs it
 * (QUEUE-13): "+63 9171234567". A number already written with a "+" is kept as it is.
 */
export const internationalPhone = (number: string | null, countryCode: string | null): string | null => {
  if (number === null || number === "") return null;
  const code = countryCode?.replace(/[^0-9]/g, "") ?? "";
  if (number.startsWith("+") || code === "") return number;
  return `+${code} ${number}`;
};

const PERSONAL_NONE = {
  firstName: null,
  middleName: null,
  lastName: null,
  email: null,
  phoneNumber: null,
  citizenship: null,
} as const;

const orEmpty = (value: string | undefined): string | null => (value === undefined || value === "" ? null : value);

/**
 * The row after one event; the same object when the event changes nothing a queue shows.
 * `policies`: the service-level policies set before this event, in the order they were set; an
 * order's clock starts under the one in force when it was paid (policyInForce).
 */
export const evolveQueueRow = (row: QueueRow | undefined, event: AnyEvent, policies: readonly ServiceLevelPolicySet[]): QueueRow | undefined => {
  if (event.type === "OrderPlaced") return { ...placedRow(event), ...clockFields(startClock(event, policyInForce(policies, event.metadata.occurredAt))) };
  // A stream starts with OrderPlaced; anything else without a row is not an order to show.
  if (row === undefined || !isOrderEvent(event)) return row;
  return advanceRowClock(evolveListed(row, event), event);
};

const advanceRowClock = (row: QueueRow, event: OrderEvent): QueueRow => {
  const clock = clockOf(row);
  const next = advanceClock(clock, event);
  return next === clock ? row : { ...row, ...clockFields(next) };
};

type ListedFacts = Omit<QueueRow, keyof ReturnType<typeof clockFields>>;

const placedRow = (event: Extract<AnyEvent, { type: "OrderPlaced" }>): ListedFacts => {
  const { data } = event;
  const personal = isErased(data.personal)
    ? { ...PERSONAL_NONE, erased: true }
    : {
        firstName: orEmpty(data.personal.first_name),
        middleName: orEmpty(data.personal.middle_name),
        lastName: orEmpty(data.personal.last_name),
        email: orEmpty(data.personal.email),
        phoneNumber: internationalPhone(orEmpty(data.personal.phone_number), orEmpty(data.personal.country_phone_code)),
        citizenship: orEmpty(data.personal.citizenship),
        erased: false,
      };
  return {
    orderId: data.orderId,
    status: intakeStatusOf(data.processingMode),
    processingMode: data.processingMode,
    landingDomain: data.landingDomain,
    processingDate: data.processingDate,
    createdAt: data.createdAt,
    ...personal,
    dateOfDeparture: orEmpty(data.application.date_of_departure),
    dateOfTravel: orEmpty(data.application.date_of_travel),
    refundDate: null,
    assigneeId: null,
    assigneeName: null,
  };
};

/** What the lists show of the order after an event other than OrderPlaced (the clock aside). */
const evolveListed = (row: QueueRow, event: OrderEvent): QueueRow => {
  switch (event.type) {
    case "OrderAssigned":
      return { ...row, status: statusAfter(event)!, assigneeId: event.data.assignee.id, assigneeName: event.data.assignee.name };
    case "OrderStatusChanged":
      return { ...row, status: statusAfter(event)! };
    case "OrderMovedToOriginalFolder":
      return { ...row, status: statusAfter(event)!, assigneeId: null, assigneeName: null };
    case "OrderRefundRequested":
      return { ...row, status: statusAfter(event)!, refundDate: event.data.refundDate };
    case "OrderRefunded":
      return { ...row, status: statusAfter(event)! };
    case "OrderChargebackMarked":
      return { ...row, status: statusAfter(event)! };
    case "OrderPermanentlyDeleted":
      // The row stays, Deleted, so every count stays right; the person in it goes.
      return { ...row, ...PERSONAL_NONE, status: statusAfter(event)!, erased: true };
    default:
      return row;
  }
};

/** "2025-04": the month a future order is grouped under (ADMIN-3). */
export const processMonthOf = (processingDate: string): string => processingDate.slice(0, 7);

/**
 * What the search box matches, lowercased: order id, the full name, e-mail and phone (with and
 * without the country code's "+" and space, so "639171234567" and "+63 917" both find it).
 * After a permanent delete only the order id, which is not personal, is left.
 */
export const searchTextOf = (row: QueueRow): string => {
  const name = [row.firstName, row.middleName, row.lastName].filter((part) => part !== null).join(" ");
  const phoneDigits = row.phoneNumber?.replace(/[^0-9]/g, "") ?? "";
  return [row.orderId, name, row.email ?? "", row.phoneNumber ?? "", phoneDigits]
    .filter((part) => part !== "")
    .join("\n")
    .toLowerCase();
};

/* The read model: its tables and counts, and a batch applied to them. */

export const QUEUE_TABLES = {
  orders: "queue_orders",
  statusCounts: "queue_status_counts",
  intakeDays: "queue_intake_days",
  assigneeCounts: "queue_assignee_counts",
  serviceLevels: "queue_service_levels",
} as const;

type QueueEvent = Extract<AnyEvent, { readonly data: { readonly orderId: string } }>;

const isQueueEvent = (event: AnyEvent): event is QueueEvent => STATUS_OR_CLOCK_EVENTS.has(event.type);

/** What a batch folds into the rows, in log order: the orders' events and the policies set between them. */
type FoldedEvent = QueueEvent | ServiceLevelPolicySet;

type BucketFacts = Pick<QueueRow, "status" | "assigneeId" | "processingDate">;

const isIntake = (row: BucketFacts) => row.status === "New" || row.status === "Priority";

/** The status-count bucket an order is in (see above). */
export const statusBucketOf = (row: BucketFacts): string =>
  isIntake(row) && row.assigneeId !== null ? `${row.status}:assigned` : row.status;

/** The processing day an unassigned New or Priority order waits for; none for any other. */
export const intakeDayOf = (row: BucketFacts): { bucket: string; day: string } | undefined =>
  isIntake(row) && row.assigneeId === null ? { bucket: row.status, day: row.processingDate } : undefined;

const migrate = async (query: Query, table: TableName): Promise<void> => {
  const orders = table(QUEUE_TABLES.orders);
  await query(`create table ${orders} (
    ${QUEUE_ORDERS.ddl}
  )`);
  // Every list is newest first (created_at desc, order_id desc); one index per kind of folder.
  const newestFirst = "created_at desc, order_id desc";
  const intake = "process_status in ('New', 'Priority') and assignee_id is null";
  await query(`create index ${orders}_status_idx on ${orders} (process_status, ${newestFirst})`);
  await query(`create index ${orders}_created_idx on ${orders} (${newestFirst})`);
  await query(`create index ${orders}_intake_idx on ${orders} (${newestFirst}) where ${intake}`);
  await query(`create index ${orders}_month_idx on ${orders} (process_month, ${newestFirst}) where ${intake}`);
  await query(
    `create index ${orders}_refund_idx on ${orders} (${newestFirst}) where process_status in ('Refund', 'CompletedRefund')`,
  );
  await query(
    `create index ${orders}_mine_idx on ${orders} (assignee_id, ${newestFirst})
     where assignee_id is not null and process_status not in ('Completed', 'CompletedRefund', 'Deleted')`,
  );
  // Renaming a staff member renames them on every order they hold, closed ones included.
  await query(`create index ${orders}_assignee_idx on ${orders} (assignee_id) where assignee_id is not null`);
  // The due order (issue 27): earliest due first (overdue ones are the earliest), Priority first at
  // the same moment, clocks that do not run (no due_at) last, then newest first; the due filters
  // are ranges of due_at. One index per folder query that shows the Due column.
  const dueFirst = `due_at, (processing_mode <> 'priority'), ${newestFirst}`;
  await query(`create index ${orders}_status_due_idx on ${orders} (process_status, ${dueFirst})`);
  await query(`create index ${orders}_intake_due_idx on ${orders} (${dueFirst}) where ${intake}`);
  await query(
    `create index ${orders}_mine_due_idx on ${orders} (assignee_id, ${dueFirst})
     where assignee_id is not null and process_status not in ('Completed', 'CompletedRefund', 'Deleted')`,
  );
  if (await trigramsAvailable(query)) {
    await query(`create index ${orders}_search_idx on ${orders} using gin (search_text gin_trgm_ops)`);
  }

  await query(`create table ${table(QUEUE_TABLES.statusCounts)} (bucket text primary key, n bigint not null)`);
  await query(`create table ${table(QUEUE_TABLES.intakeDays)} (
    bucket text not null,
    day text not null,
    n bigint not null,
    primary key (bucket, day)
  )`);
  await query(`create table ${table(QUEUE_TABLES.serviceLevels)} (
    version integer primary key,
    event jsonb not null
  )`);
  await query(`create table ${table(QUEUE_TABLES.assigneeCounts)} (
    assignee_id text not null,
    process_status text not null,
    n bigint not null,
    primary key (assignee_id, process_status)
  )`);
};

/**
 * pg_trgm makes substring search an index lookup. Without it (a server that does not offer the
 * extension, a role that may not create it) search still works, by scanning the folder: worse
 * than an index, better than a read model that cannot be built.
 */
const trigramsAvailable = async (query: Query): Promise<boolean> => {
  const installed = async () =>
    (await query(`select exists (select 1 from pg_extension where extname = 'pg_trgm') as installed`))[0]?.installed === true;
  if (await installed()) return true;
  await query("savepoint queue_pg_trgm");
  try {
    await query("create extension if not exists pg_trgm");
    await query("release savepoint queue_pg_trgm");
    return true;
  } catch {
    await query("rollback to savepoint queue_pg_trgm");
    // Another build may have created it meanwhile.
    return installed();
  }
};

/** Adds up +1/-1 moves per key, dropping the ones that cancel out. */
const tally = <K extends Record<string, string>>() => {
  const totals = new Map<string, { key: K; n: number }>();
  return {
    move: (key: K, n: number) => {
      const id = JSON.stringify(key);
      const entry = totals.get(id) ?? { key, n: 0 };
      entry.n += n;
      totals.set(id, entry);
    },
    rows: () => [...totals.values()].filter((entry) => entry.n !== 0).map(({ key, n }) => ({ ...key, n })),
  };
};

/**
 * The policies set before this batch, in the order they were set, and this batch's added to the
 * table. Read only when the batch places an order (the only event that asks which is in force).
 */
const policiesBefore = async (events: readonly FoldedEvent[], query: Query, table: TableName): Promise<ServiceLevelPolicySet[]> => {
  const levels = table(QUEUE_TABLES.serviceLevels);
  const added = events.filter((event): event is ServiceLevelPolicySet => event.type === "ServiceLevelPolicySet");
  const stored = events.some((event) => event.type === "OrderPlaced")
    ? // Written from decoded events by this projection (below): read back as they were.
      (await query(`select event from ${levels} order by version`)).map((row) => row.event as ServiceLevelPolicySet)
    : [];
  if (added.length > 0) {
    await query(
      `insert into ${levels} (version, event) select (e ->> 'version')::int, e -> 'event' from jsonb_array_elements($1::jsonb) as e
       on conflict (version) do nothing`,
      [JSON.stringify(added.map((event) => ({ version: event.data.version, event })))],
    );
  }
  return stored;
};

/** Any day before and after every processing date: whether an order is New or Future depends on the day asked. */
const EVERY_DAY = ["0000-01-01", "9999-12-31"];

/**
 * The folders a row is in on some day, as the live feed names them (contract LiveChange.changed):
 * the queue keys, and My Orders as `myOrder:<staffId>`, the one member's whose list it is.
 */
const foldersOf = (row: QueueRow): string[] =>
  QUEUE_KEYS.flatMap((key) => {
    const viewers = EVERY_DAY.map((today) => ({ today, staffId: row.assigneeId ?? "" }));
    if (!viewers.some((viewer) => isInFolder(key, row, viewer))) return [];
    return [key === "myOrder" ? `myOrder:${row.assigneeId}` : key];
  });

/** Applies the batch's order events; answers the folders whose rows changed (an order's before and after). */
const applyOrderEvents = async (folded: readonly FoldedEvent[], query: Query, table: TableName): Promise<Changed> => {
  const orders = table(QUEUE_TABLES.orders);
  const policies = await policiesBefore(folded, query, table);
  const events = folded.filter((event): event is QueueEvent => event.type !== "ServiceLevelPolicySet");
  if (events.length === 0) return [];
  const ids = [...new Set(events.map((event) => event.data.orderId))];
  const loaded = await query(
    `select ${QUEUE_ORDERS.select} from ${orders} where order_id in (select jsonb_array_elements_text($1::jsonb))`,
    [JSON.stringify(ids)],
  );
  const before = new Map(loaded.map((row) => [String(row.order_id), QUEUE_ORDERS.decode(row)]));
  const after = new Map<string, QueueRow | undefined>(before);
  // In log order: an order placed after a policy in this batch starts under it.
  for (const event of folded) {
    if (event.type === "ServiceLevelPolicySet") policies.push(event);
    else after.set(event.data.orderId, evolveQueueRow(after.get(event.data.orderId), event, policies));
  }

  const changed: QueueRow[] = [];
  const folders = new Set<string>();
  const statuses = tally<{ bucket: string }>();
  const days = tally<{ bucket: string; day: string }>();
  const assignees = tally<{ assignee_id: string; process_status: string }>();
  for (const [orderId, row] of after) {
    const old = before.get(orderId);
    if (row === old || row === undefined) continue;
    changed.push(row);
    for (const folder of [...(old ? foldersOf(old) : []), ...foldersOf(row)]) folders.add(folder);
    for (const [counted, n] of old === undefined ? ([[row, 1]] as const) : ([[old, -1], [row, 1]] as const)) {
      statuses.move({ bucket: statusBucketOf(counted) }, n);
      const waiting = intakeDayOf(counted);
      if (waiting !== undefined) days.move(waiting, n);
      if (counted.assigneeId !== null) assignees.move({ assignee_id: counted.assigneeId, process_status: counted.status }, n);
    }
  }
  if (changed.length === 0) return [];

  await query(QUEUE_ORDERS.upsert(orders), [JSON.stringify(changed.map(QUEUE_ORDERS.record))]);
  await addCounts(query, table(QUEUE_TABLES.statusCounts), ["bucket"], statuses.rows());
  await addCounts(query, table(QUEUE_TABLES.intakeDays), ["bucket", "day"], days.rows());
  await addCounts(query, table(QUEUE_TABLES.assigneeCounts), ["assignee_id", "process_status"], assignees.rows());
  return [...folders];
};

/** Adds the deltas in one statement; rows that reach 0 are removed so the sums stay short. */
const addCounts = async (query: Query, counts: string, key: readonly string[], deltas: readonly object[]) => {
  if (deltas.length === 0) return;
  const columns = key.join(", ");
  const typed = key.map((column) => `${column} text`).join(", ");
  const emptied = await query(
    `insert into ${counts} (${columns}, n) select ${columns}, n from jsonb_to_recordset($1::jsonb) as r(${typed}, n bigint)
     on conflict (${columns}) do update set n = ${counts}.n + excluded.n
     returning ${columns}, n`,
    [JSON.stringify(deltas)],
  );
  const zero = emptied.filter((row) => Number(row.n) === 0);
  if (zero.length === 0) return;
  await query(
    `delete from ${counts} c using jsonb_to_recordset($1::jsonb) as r(${typed})
     where ${key.map((column) => `c.${column} = r.${column}`).join(" and ")} and c.n = 0`,
    [JSON.stringify(zero.map((row) => Object.fromEntries(key.map((column) => [column, row[column]]))))],
  );
};

/**
 * A renamed staff member is shown with their current name on the orders they hold. One
 * statement per member renamed in the batch (renames are rare): with the id as a parameter the
 * planner sees how many orders that member holds and takes the assignee index.
 */
const renameAssignees = async (renames: ReadonlyMap<string, string>, query: Query, table: TableName) => {
  const orders = table(QUEUE_TABLES.orders);
  for (const [staffId, name] of renames) {
    await query(`update ${orders} set assignee_name = $2 where assignee_id = $1 and assignee_name is distinct from $2`, [staffId, name]);
  }
};

export const queueProjection: Projection = {
  name: "queue",
  version: QUEUE_VERSION,
  tables: Object.values(QUEUE_TABLES),
  migrate,
  apply: async (events, query, table) => {
    const orderEvents: FoldedEvent[] = [];
    const renames = new Map<string, string>();
    for (const { event } of events) {
      if (isQueueEvent(event) || event.type === "ServiceLevelPolicySet") orderEvents.push(event);
      else if (event.type === "StaffMemberUpdated") renames.set(event.data.staffId, event.data.name);
    }
    const folders = orderEvents.length > 0 ? await applyOrderEvents(orderEvents, query, table) : [];
    // After the rows: an assignment earlier in this batch carries the old name.
    if (renames.size === 0) return folders;
    await renameAssignees(renames, query, table);
    // A renamed member's orders may be in any folder.
  },
};
