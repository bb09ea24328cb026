import type { Query } from "@etd/event-store";
import type { AnyEvent } from "@etd/events";
import type { Projection, TableName } from "../engine/projection.ts";
import { evolveQueueRow, QUEUE_EVENT_TYPES, QUEUE_ORDERS, QUEUE_VERSION, type QueueRow } from "./queue-row.ts";

/*
 * The queues read model (DESIGN §5, QUEUE-1..7, SHELL-5, ADMIN-3).
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
 *
 * Counts move by deltas (the bucket an order leaves, the one it enters), computed from the rows
 * before and after each batch, so nothing ever counts the orders table.
 */

export const QUEUE_TABLES = {
  orders: "queue_orders",
  statusCounts: "queue_status_counts",
  intakeDays: "queue_intake_days",
  assigneeCounts: "queue_assignee_counts",
} as const;

type QueueEvent = Extract<AnyEvent, { readonly data: { readonly orderId: string } }>;

const isQueueEvent = (event: AnyEvent): event is QueueEvent => QUEUE_EVENT_TYPES.has(event.type);

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

const applyOrderEvents = async (events: readonly QueueEvent[], query: Query, table: TableName): Promise<void> => {
  const orders = table(QUEUE_TABLES.orders);
  const ids = [...new Set(events.map((event) => event.data.orderId))];
  const loaded = await query(
    `select ${QUEUE_ORDERS.select} from ${orders} where order_id in (select jsonb_array_elements_text($1::jsonb))`,
    [JSON.stringify(ids)],
  );
  const before = new Map(loaded.map((row) => [String(row.order_id), QUEUE_ORDERS.decode(row)]));
  const after = new Map<string, QueueRow | undefined>(before);
  for (const event of events) after.set(event.data.orderId, evolveQueueRow(after.get(event.data.orderId), event));

  const changed: QueueRow[] = [];
  const statuses = tally<{ bucket: string }>();
  const days = tally<{ bucket: string; day: string }>();
  const assignees = tally<{ assignee_id: string; process_status: string }>();
  for (const [orderId, row] of after) {
    const old = before.get(orderId);
    if (row === old || row === undefined) continue;
    changed.push(row);
    for (const [counted, n] of old === undefined ? ([[row, 1]] as const) : ([[old, -1], [row, 1]] as const)) {
      statuses.move({ bucket: statusBucketOf(counted) }, n);
      const waiting = intakeDayOf(counted);
      if (waiting !== undefined) days.move(waiting, n);
      if (counted.assigneeId !== null) assignees.move({ assignee_id: counted.assigneeId, process_status: counted.status }, n);
    }
  }
  if (changed.length === 0) return;

  await query(QUEUE_ORDERS.upsert(orders), [JSON.stringify(changed.map(QUEUE_ORDERS.record))]);
  await addCounts(query, table(QUEUE_TABLES.statusCounts), ["bucket"], statuses.rows());
  await addCounts(query, table(QUEUE_TABLES.intakeDays), ["bucket", "day"], days.rows());
  await addCounts(query, table(QUEUE_TABLES.assigneeCounts), ["assignee_id", "process_status"], assignees.rows());
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
    const orderEvents: QueueEvent[] = [];
    const renames = new Map<string, string>();
    for (const { event } of events) {
      if (isQueueEvent(event)) orderEvents.push(event);
      else if (event.type === "StaffMemberUpdated") renames.set(event.data.staffId, event.data.name);
    }
    if (orderEvents.length > 0) await applyOrderEvents(orderEvents, query, table);
    // After the rows: an assignment earlier in this batch carries the old name.
    if (renames.size > 0) await renameAssignees(renames, query, table);
  },
};
