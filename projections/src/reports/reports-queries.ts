import type { Query, Row } from "@etd/event-store";
import type { CountryOrdersRow, ProcessedByRow, ProcessedOrderRow } from "@etd/contract";
import type { OrderStatus, ProcessingMode } from "@etd/events";
import { grainFilter, rangeParameters, splitRange } from "./day-ranges.ts";
import { REPORT_TABLES } from "./reports-projection.ts";

/*
 * Reads of the reports projection (ADMIN-4, ADMIN-5, ADMIN-7), through the views the engine
 * points at the live version. Dates are UTC calendar days, `YYYY-MM-DD`; both ends of a range are
 * included, and an empty or missing end means "no limit" on that side.
 */

/** A range of days; `undefined` or "" leaves that side open. Callers validate the format. */
export interface DayRange {
  readonly fromDate?: string | undefined;
  readonly toDate?: string | undefined;
}

/** The reports' rows are the wire contract's (ADMIN-4, ADMIN-5, ADMIN-7). */
export type { CountryOrdersRow, ProcessedByRow, ProcessedOrderRow } from "@etd/contract";

/** Rows per page, or every row (the lists' "All", 000 §9). */
export type ProcessedPageSize = number | "All";

export interface ProcessedOrdersPage {
  readonly rows: readonly ProcessedOrderRow[];
  /** Every processed order in the range, for the pagination. */
  readonly total: number;
  readonly page: number;
  readonly limit: ProcessedPageSize;
}

const NOT_STATED = "Not stated";

const bound = (day: string | undefined): string | null => (day && day.trim() !== "" ? day.trim() : null);

/** The instant a UTC day starts, and the one after the last day of a range ends (exclusive). */
const startOf = (day: string | null): string | null => (day === null ? null : `${day}T00:00:00.000Z`);
const endOf = (day: string | null): string | null =>
  day === null ? null : new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/**
 * Orders created in the range per country (ADMIN-4), most orders first. Soft-deleted orders are
 * not counted. `today` (YYYY-MM-DD, UTC) decides which orders are still future orders.
 */
export const countryOrders = async (
  query: Query,
  { fromDate, toDate, today }: DayRange & { readonly today: string },
): Promise<CountryOrdersRow[]> => {
  const from = bound(fromDate);
  const to = bound(toDate);
  const rows = await query(
    `with days as (
       select t.country_key,
              sum(t.orders) as count,
              coalesce(sum(t.orders) filter (where t.processing_mode = 'standard'), 0) as standard_count,
              coalesce(sum(t.orders) filter (where t.processing_mode = 'priority'), 0) as priority_count
         from ${REPORT_TABLES.countryTotals} t
        where ${grainFilter("t", 1)}
        group by t.country_key
     ), due as (
       select country_key, sum(orders) as future_count
         from ${REPORT_TABLES.countryDue}
        where processing_date > $7::date
          and created_day between coalesce($8::date, '-infinity'::date) and coalesce($9::date, 'infinity'::date)
        group by country_key
     )
     select coalesce(n.citizenship_id, '') as citizenship_id,
            coalesce(n.citizenship, nullif(n.citizenship_id, ''), '${NOT_STATED}') as citizenship,
            d.count::int as count, d.standard_count::int as standard_count, d.priority_count::int as priority_count,
            coalesce(f.future_count, 0)::int as future_count
       from days d
       left join due f on f.country_key = d.country_key
       left join ${REPORT_TABLES.countryNames} n on n.country_key = d.country_key
      where d.count > 0
      order by d.count desc, 2 asc`,
    [...rangeParameters(splitRange(from, to)), today, from, to],
  );
  return rows.map((row) => ({
    citizenship_id: String(row.citizenship_id),
    citizenship: String(row.citizenship),
    count: Number(row.count),
    standard_count: Number(row.standard_count),
    priority_count: Number(row.priority_count),
    future_count: Number(row.future_count),
  }));
};

/**
 * Orders per staff member who processed them (ADMIN-5): each order counts once, for whoever
 * uploaded its document last, on the day of that upload. Most orders first, then by name.
 */
export const processedBy = async (query: Query, { fromDate, toDate }: DayRange): Promise<ProcessedByRow[]> => {
  const rows = await query(
    `select p.staff_id, coalesce(s.name, p.staff_id) as name, sum(p.orders)::int as count
       from ${REPORT_TABLES.processedTotals} p
       left join ${REPORT_TABLES.staffNames} s on s.staff_id = p.staff_id
      where ${grainFilter("p", 1)}
      group by p.staff_id, s.name
     having sum(p.orders) > 0
      order by count desc, name asc, p.staff_id asc`,
    rangeParameters(splitRange(bound(fromDate), bound(toDate))),
  );
  return rows.map((row) => ({ processed_by_id: String(row.staff_id), processed_by: String(row.name), count: Number(row.count) }));
};

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The list's condition on the orders table `o`: a document, uploaded last within [$1, $2). */
export const PROCESSED_IN_RANGE = `o.processed_at is not null
      and o.processed_at >= coalesce($1::timestamptz, '-infinity'::timestamptz)
      and o.processed_at < coalesce($2::timestamptz, 'infinity'::timestamptz)`;

/**
 * The Order Processed list's rows (ADMIN-7), for its pages and its CSV export alike: orders with
 * a document whose last upload falls within the range, `$1` inclusive to `$2` exclusive (either
 * null: open on that side; see processedRangeParameters). `columns` adds to the row's columns and
 * `and` to the condition; the caller orders and limits.
 */
export const processedOrdersSelect = ({ columns = "", and = "" }: { readonly columns?: string; readonly and?: string } = {}): string =>
  `select o.order_id, o.processed_by_id, coalesce(s.name, o.processed_by) as processed_by,
          ${ISO("o.processed_at")} as processed_at, o.status, o.processing_mode,
          to_char(o.processing_date, 'YYYY-MM-DD') as processing_date,
          coalesce(o.citizenship, nullif(o.citizenship_id, ''), '${NOT_STATED}') as citizenship,
          ${ISO("o.created_at")} as created_at${columns}
     from ${REPORT_TABLES.orders} o
     left join ${REPORT_TABLES.staffNames} s on s.staff_id = o.processed_by_id
    where ${PROCESSED_IN_RANGE}${and}`;

/** `$1` and `$2` of processedOrdersSelect: the instants a range of UTC days starts and ends. */
export const processedRangeParameters = (range: DayRange): [string | null, string | null] => [
  startOf(bound(range.fromDate)),
  endOf(bound(range.toDate)),
];

/** A row of processedOrdersSelect as the contract's list row. */
export const toProcessedOrderRow = (row: Row): ProcessedOrderRow => ({
  order_id: String(row.order_id),
  processed_by_id: String(row.processed_by_id),
  processed_by: String(row.processed_by),
  processed_at: String(row.processed_at),
  status: row.status as OrderStatus,
  processing_mode: row.processing_mode as ProcessingMode,
  processing_date: String(row.processing_date),
  citizenship: String(row.citizenship),
  created_at: String(row.created_at),
});

/**
 * The Order Processed list (ADMIN-7): orders with a document, the latest upload first; the range,
 * when given, is on the day of that upload. `page` counts from 1; "All" is one page of everything.
 */
export const processedOrders = async (
  query: Query,
  params: DayRange & { readonly page: number; readonly limit: ProcessedPageSize },
): Promise<ProcessedOrdersPage> => {
  const from = bound(params.fromDate);
  const to = bound(params.toDate);
  const page = params.limit === "All" ? 1 : Math.max(1, Math.floor(params.page));
  const limit = params.limit === "All" ? "All" : Math.max(1, Math.floor(params.limit));
  const rows = await query(
    `${processedOrdersSelect()}
      order by o.processed_at desc, o.order_id desc
      limit $3 offset $4`,
    // `limit null` is no limit.
    [...processedRangeParameters(params), limit === "All" ? null : limit, limit === "All" ? 0 : (page - 1) * limit],
  );
  const [total] = await query(
    `select coalesce(sum(p.orders), 0)::int as total from ${REPORT_TABLES.processedTotals} p where ${grainFilter("p", 1)}`,
    rangeParameters(splitRange(from, to)),
  );
  return {
    rows: rows.map(toProcessedOrderRow),
    total: Number(total?.total ?? 0),
    page,
    limit,
  };
};
