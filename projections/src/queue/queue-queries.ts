import type { Query, Row } from "@etd/event-store";
import { DUE_SOON_MS, monthName, queueListRow, type DueFilter, type FutureMonthTile, type QueueListRow, type QueueSort, type SelectedOrder } from "@etd/contract";
import type { OrderStatus } from "@etd/events";
import {
  CLOSED_STATUSES,
  FOLDER_STATUSES,
  type FolderCounts,
  type QueueKey,
  type QueueViewer,
} from "./queue-folders.ts";
import { QUEUE_ORDERS, QUEUE_TABLES } from "./queue-projection.ts";

/*
 * Reads of the queue read model, through its views. Every folder's SQL names its statuses as
 * literals (never as parameters) so that PostgreSQL can match the partial indexes built for it;
 * only today, the staff id, the month and the paging are parameters.
 */

const { orders: ORDERS, statusCounts: STATUS_COUNTS, intakeDays: INTAKE_DAYS, assigneeCounts: ASSIGNEE_COUNTS } = QUEUE_TABLES;

/** An order as a list shows it: the wire contract's list row (000 §3's list item, then 001 §3's display values). */
export type { QueueListRow } from "@etd/contract";

/** Qualified: a bare created_at would sort by the formatted text column of the same name. */
const NEWEST_FIRST = "order by o.created_at desc, o.order_id desc";

/**
 * Issue 27's order: overdue first, then earliest due (one range: an overdue order's due_at is the
 * earlier), Priority before Standard at the same moment, clocks that do not run (no due_at) last;
 * then newest first. The queue indexes end in the same columns (queue-projection.ts).
 */
const DUE_FIRST = "order by o.due_at asc nulls last, (o.processing_mode <> 'priority'), o.created_at desc, o.order_id desc";

/** The ORDER BY of a list, a search or a select all. */
export const orderByOf = (sort: QueueSort | undefined): string => (sort === "due" ? DUE_FIRST : NEWEST_FIRST);

/** What issue 27 adds to a list's question: only the overdue, or those due within the hour, as of `now`; and the order. */
export interface DueOptions {
  readonly due?: DueFilter | undefined;
  readonly sort?: QueueSort | undefined;
  /** The moment the filter counts from (the server's clock); needed with `due`. */
  readonly now?: Date | undefined;
}

/** The due filter's condition, "" without one. Overdue: due by now; within the hour: after now, by now + 1 h. */
export const dueWhere = (options: DueOptions, add: (value: unknown) => string): string => {
  if (options.due === undefined) return "";
  const now = (options.now ?? new Date()).getTime();
  if (options.due === "overdue") return ` and o.due_at <= ${add(new Date(now).toISOString())}::timestamptz`;
  return ` and o.due_at > ${add(new Date(now).toISOString())}::timestamptz and o.due_at <= ${add(new Date(now + DUE_SOON_MS).toISOString())}::timestamptz`;
};

/** A selected row (QUEUE_ORDERS.select) as the list shows it in folder `key`. Exported for the CSV export (queue-export.ts). */
export const toListRow = (key: QueueKey) => {
  const listRow = queueListRow(key);
  return (selected: Row): QueueListRow => listRow(QUEUE_ORDERS.listed(QUEUE_ORDERS.decode(selected)));
};

/** Collects parameters and hands back their placeholders. */
export const parameters = () => {
  const values: unknown[] = [];
  return {
    values,
    add: (value: unknown): string => {
      values.push(value);
      return `$${values.length}`;
    },
  };
};

const literals = (statuses: readonly OrderStatus[]) => statuses.map((status) => `'${status}'`).join(", ");

/** A folder's WHERE clause (DESIGN §4; `isInFolder` is the same rule in TypeScript). */
export const folderWhere = (key: QueueKey, viewer: QueueViewer, add: (value: unknown) => string, processMonth?: string): string => {
  switch (key) {
    case "newOrder":
    case "priorityOrder":
      return `process_status = '${key === "newOrder" ? "New" : "Priority"}' and assignee_id is null
        and processing_date <= ${add(viewer.today)}::date`;
    case "futureOrder":
      return `process_status in ('New', 'Priority') and assignee_id is null and processing_date > ${add(viewer.today)}::date${
        processMonth === undefined ? "" : ` and process_month = ${add(processMonth)}`
      }`;
    case "myOrder":
      return `assignee_id is not null and assignee_id = ${add(viewer.staffId)}
        and process_status not in (${literals(CLOSED_STATUSES)})`;
    case "allOrder":
      return "true";
    default: {
      const statuses: readonly OrderStatus[] = FOLDER_STATUSES[key];
      return statuses.length === 1 ? `process_status = ${literals(statuses)}` : `process_status in (${literals(statuses)})`;
    }
  }
};

// ---------------------------------------------------------------------------------------------
// Counts (SHELL-5)

/**
 * The three small sources of every count in one round trip: each bucket's total, the waiting
 * New/Priority orders due after today (a range over future days only), and the viewer's orders
 * per status.
 */
const COUNT_SOURCES_SQL = `select 'total' as source, bucket, n::int8 as n from ${STATUS_COUNTS}
  union all
  select 'future', bucket, sum(n)::int8 from ${INTAKE_DAYS} where bucket in ('New', 'Priority') and day > $1::text group by bucket
  union all
  select 'mine', process_status, n::int8 from ${ASSIGNEE_COUNTS} where assignee_id = $2::text`;

/**
 * The counts object of 000 §3 (SHELL-5), exactly its fourteen fields. My Orders counts the
 * orders of `staffId`. Read from the small counts tables: the orders table is never counted.
 */
export const folderCounts = async (query: Query, viewer: QueueViewer): Promise<FolderCounts> => {
  const sums = { total: new Map<string, number>(), future: new Map<string, number>(), mine: new Map<string, number>() };
  for (const row of await query(COUNT_SOURCES_SQL, [viewer.today, viewer.staffId])) {
    sums[row.source as keyof typeof sums].set(String(row.bucket), Number(row.n));
  }
  const total = (...buckets: readonly string[]) => buckets.reduce((sum, bucket) => sum + (sums.total.get(bucket) ?? 0), 0);
  const future = (bucket: string) => sums.future.get(bucket) ?? 0;
  const closed: ReadonlySet<string> = new Set(CLOSED_STATUSES);
  const statuses = (key: keyof typeof FOLDER_STATUSES) => total(...FOLDER_STATUSES[key]);
  return {
    myOrdersCount: [...sums.mine].reduce((sum, [status, n]) => (closed.has(status) ? sum : sum + n), 0),
    newOrdersCount: total("New") - future("New"),
    priorityOrdersCount: total("Priority") - future("Priority"),
    pendingOrdersCount: statuses("pendingOrder"),
    completedOrdersCount: statuses("completedOrder"),
    awaitingOrdersCount: statuses("awaitingOrder"),
    awaitingGovtCount: statuses("awaitingGovtOrder"),
    futureOrdersCount: future("New") + future("Priority"),
    contactCustomerOrdersCount: statuses("contactCustomerOrder"),
    customerCalledCount: statuses("customerCalledOrder"),
    deletedOrdersCount: statuses("deletedOrder"),
    allOrdersCount: [...sums.total.values()].reduce((sum, n) => sum + n, 0),
    refundOrdersCount: statuses("refundOrder"),
    chargeBack: statuses("chargeBack"),
  };
};

const pagingClause = (add: (value: unknown) => string, offset: number, limit: QueuePageSize) =>
  limit === "All" ? (offset > 0 ? ` offset ${add(offset)}` : "") : ` limit ${add(limit)} offset ${add(offset)}`;

const sumOf = (table: string, where: string) => `(select coalesce(sum(n), 0) from ${table} where ${where})`;

/**
 * A folder's total (QUEUE-7) as one SQL expression over the counts tables: the same numbers as
 * `folderCounts` (a test holds them equal), in a form a page's statement can carry along, so
 * page 1 is one round trip. A future-order month's total is that month's.
 */
const folderTotalSql = (key: QueueKey, viewer: QueueViewer, add: (value: unknown) => string, processMonth?: string): string => {
  switch (key) {
    case "newOrder":
    case "priorityOrder": {
      const bucket = key === "newOrder" ? "New" : "Priority";
      return `${sumOf(STATUS_COUNTS, `bucket = '${bucket}'`)} - ${sumOf(INTAKE_DAYS, `bucket = '${bucket}' and day > ${add(viewer.today)}::text`)}`;
    }
    case "futureOrder":
      return sumOf(
        INTAKE_DAYS,
        `bucket in ('New', 'Priority') and day > ${add(viewer.today)}::text${
          processMonth === undefined ? "" : ` and day like ${add(`${processMonth}-%`)}::text`
        }`,
      );
    case "myOrder":
      return sumOf(ASSIGNEE_COUNTS, `assignee_id = ${add(viewer.staffId)}::text and process_status not in (${literals(CLOSED_STATUSES)})`);
    case "allOrder":
      return sumOf(STATUS_COUNTS, "true");
    default:
      return sumOf(STATUS_COUNTS, `bucket in (${literals(FOLDER_STATUSES[key])})`);
  }
};

/** A list's total (QUEUE-7): the folder's count, or the month's for a future-order month. */
export const folderTotal = async (query: Query, key: QueueKey, viewer: QueueViewer, processMonth?: string): Promise<number> => {
  const { values, add } = parameters();
  const [row] = await query(`select (${folderTotalSql(key, viewer, add, processMonth)})::int8 as total`, values);
  return Number(row?.total ?? 0);
};

/**
 * One page of a folder with the folder's total on every row: an uncorrelated subquery, which
 * PostgreSQL evaluates once. Only an empty page needs a second statement for the total.
 */
const pageOf = async (
  query: Query,
  key: QueueKey,
  viewer: QueueViewer,
  offset: number,
  limit: QueuePageSize,
  processMonth: string | undefined,
  options: DueOptions = {},
): Promise<{ rows: QueueListRow[]; total: number }> => {
  // Filtered, the total is the filter's matches, counted: the counts tables know no due times.
  if (options.due !== undefined) return filteredPageOf(query, key, viewer, offset, limit, processMonth, options, "");
  const { values, add } = parameters();
  const total = folderTotalSql(key, viewer, add, processMonth);
  const where = folderWhere(key, viewer, add, processMonth);
  const rows = await query(
    `select ${QUEUE_ORDERS.select}, (${total})::int8 as folder_total from ${ORDERS} o where ${where} ${orderByOf(options.sort)}${pagingClause(add, offset, limit)}`,
    values,
  );
  return {
    rows: rows.map(toListRow(key)),
    total: rows[0] === undefined ? await folderTotal(query, key, viewer, processMonth) : Number(rows[0].folder_total),
  };
};

/**
 * A page of a folder's orders that match a search term (lowercased, "" for none) and the due
 * filter, with their count: the count scans the matches (a search's or a due range's), never the
 * whole folder.
 */
const filteredPageOf = async (
  query: Query,
  key: QueueKey,
  viewer: QueueViewer,
  offset: number,
  limit: QueuePageSize,
  processMonth: string | undefined,
  options: DueOptions,
  term: string,
): Promise<{ rows: QueueListRow[]; total: number }> => {
  const { values, add } = parameters();
  const searched = term === "" ? "" : ` and search_text like ${add(likePattern(term))}`;
  const where = `${folderWhere(key, viewer, add, processMonth)}${searched}${dueWhere(options, add)}`;
  const countValues = [...values];
  const [rows, counted] = await Promise.all([
    limit === 0
      ? Promise.resolve([])
      : query(`select ${QUEUE_ORDERS.select} from ${ORDERS} o where ${where} ${orderByOf(options.sort)}${pagingClause(add, offset, limit)}`, values),
    query(`select count(*)::int8 as total from ${ORDERS} o where ${where}`, countValues),
  ]);
  return { rows: rows.map(toListRow(key)), total: Number(counted[0]?.total ?? 0) };
};

// ---------------------------------------------------------------------------------------------
// Lists (QUEUE-1, QUEUE-5)

/** Rows per page: 1 to 500, or every row (000 §9). */
export type QueuePageSize = number | "All";

export interface OrdersListParams extends QueueViewer, DueOptions {
  readonly queueKey: QueueKey;
  /** From 1. */
  readonly page: number;
  readonly limit: QueuePageSize;
  /** Future orders only: one process month, "2025-04" (ADMIN-3's month table). */
  readonly processMonth?: string | undefined;
}

export interface OrdersPage {
  readonly rows: readonly QueueListRow[];
  /** Orders in the whole folder, from its count. */
  readonly total: number;
  readonly page: number;
  readonly limit: QueuePageSize;
}

/** One page of a folder, newest first (created_at desc, order_id desc) or by due, with the folder's total (the filter's matches, filtered). */
export const ordersList = async (query: Query, params: OrdersListParams): Promise<OrdersPage> => {
  const page = params.limit === "All" ? 1 : Math.max(1, Math.floor(params.page));
  const limit = params.limit === "All" ? "All" : Math.max(1, Math.floor(params.limit));
  const offset = limit === "All" ? 0 : (page - 1) * limit;
  const { rows, total } = await pageOf(query, params.queueKey, params, offset, limit, params.processMonth, params);
  return { rows, total, page, limit };
};

// ---------------------------------------------------------------------------------------------
// Search (QUEUE-2, 000 §7 POST /admin/search-order)

export interface SearchOrdersParams extends QueueViewer, DueOptions {
  readonly folderName: QueueKey;
  /** Matched case-insensitively as a substring of order id, names, e-mail and phone. */
  readonly searchVal: string;
  /** The first row to return, counting from 0. */
  readonly start: number;
  /** The row after the last to return, or every row from `start`. */
  readonly end: number | "All";
  readonly processMonth?: string | undefined;
}

export interface QueueSearchResult {
  readonly rows: readonly QueueListRow[];
  /** Matching orders in the folder. */
  readonly total: number;
}

/** LIKE's own characters typed in a search box mean themselves. */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The matching orders of one folder, newest first, rows `start` to `end`. */
export const searchOrders = async (query: Query, params: SearchOrdersParams): Promise<QueueSearchResult> => {
  const start = Math.max(0, Math.floor(params.start));
  const limit: QueuePageSize = params.end === "All" ? "All" : Math.max(0, Math.floor(params.end) - start);
  const term = params.searchVal.trim().toLowerCase();
  if (term === "" && params.due === undefined) {
    if (limit === 0) return { rows: [], total: await folderTotal(query, params.folderName, params, params.processMonth) };
    return pageOf(query, params.folderName, params, start, limit, params.processMonth, params);
  }
  return filteredPageOf(query, params.folderName, params, start, limit, params.processMonth, params, term);
};

// ---------------------------------------------------------------------------------------------
// Select all across pages (issue 16)

export interface SelectOrdersParams extends QueueViewer, Pick<DueOptions, "due" | "now"> {
  readonly folderName: QueueKey;
  /** As a search's (QUEUE-2); blank selects the whole folder. */
  readonly searchVal: string;
  readonly processMonth?: string | undefined;
  /** Rows read at most: one more than may be selected tells "too many" apart from "exactly as many". */
  readonly limit: number;
}

/**
 * Every order of a folder, or of its search, newest first (the order the pages show), up to
 * `limit`: the same WHERE as the lists and the search, so "select all" means what the member
 * sees across the pages. Only the three columns a bulk action's precondition needs.
 */
export const selectOrders = async (query: Query, params: SelectOrdersParams): Promise<SelectedOrder[]> => {
  const { values, add } = parameters();
  const term = params.searchVal.trim().toLowerCase();
  const folder = folderWhere(params.folderName, params, add, params.processMonth);
  const searched = term === "" ? folder : `${folder} and search_text like ${add(likePattern(term))}`;
  const where = `${searched}${dueWhere(params, add)}`;
  const rows = await query(
    `select order_id, process_status, assignee_id from ${ORDERS} o where ${where} ${NEWEST_FIRST} limit ${add(Math.max(0, Math.floor(params.limit)))}`,
    values,
  );
  return rows.map((row) => ({
    orderId: String(row.order_id),
    process_status: row.process_status as OrderStatus,
    assign_to_id: typeof row.assignee_id === "string" ? row.assignee_id : null,
  }));
};

// ---------------------------------------------------------------------------------------------
// Future months (ADMIN-3)

/** A month tile of the future-orders calendar (ADMIN-3), as the contract declares it. */
export type { FutureMonthTile } from "@etd/contract";

export interface FutureMonthsParams {
  /** YYYY-MM-DD, UTC. */
  readonly today: string;
  /** A calendar year's tiles; without it, the twelve months from today's month on. */
  readonly year?: number | undefined;
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The twelve month tiles of the future-orders calendar (ADMIN-3), January to December. Without
 * a year, each tile is that month's next occurrence from today's month (so in November, January
 * means next January): future orders are due within months, and every one of them then shows.
 */
export const futureMonths = async (query: Query, params: FutureMonthsParams): Promise<FutureMonthTile[]> => {
  const thisYear = Number(params.today.slice(0, 4));
  const thisMonth = Number(params.today.slice(5, 7));
  const yearOf = (month: number) => params.year ?? (month >= thisMonth ? thisYear : thisYear + 1);
  const tiles = Array.from({ length: 12 }, (_, i) => ({ month: i + 1, processMonth: `${yearOf(i + 1)}-${pad(i + 1)}` }));
  const sorted = tiles.map((tile) => tile.processMonth).sort();
  const from = `${sorted[0] ?? ""}-01`;
  const last = sorted[sorted.length - 1] ?? "";
  const lastMonth = Number(last.slice(5, 7));
  const until = lastMonth === 12 ? `${Number(last.slice(0, 4)) + 1}-01-01` : `${last.slice(0, 5)}${pad(lastMonth + 1)}-01`;
  const rows = await query(
    `select substr(day, 1, 7) as process_month, sum(n)::int8 as count from ${INTAKE_DAYS}
     where bucket in ('New', 'Priority') and day > $1::text and day >= $2::text and day < $3::text
     group by 1`,
    [params.today, from, until],
  );
  const byMonth = new Map(rows.map((row) => [String(row.process_month), Number(row.count)]));
  return tiles.map((tile) => ({ ...tile, name: monthName(tile.month), count: byMonth.get(tile.processMonth) ?? 0 }));
};
