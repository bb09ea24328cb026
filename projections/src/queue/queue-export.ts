import type { Query } from "@etd/event-store";
import type { CountryOrdersRow, ProcessedByRow, QueueListRow, ReportName } from "@etd/contract";
import { countryOrders, processedBy } from "../reports/reports-queries.ts";
import type { QueueKey, QueueViewer } from "./queue-folders.ts";
import { QUEUE_ORDERS, QUEUE_TABLES } from "./queue-projection.ts";
import { folderTotal, folderWhere, likePattern, parameters, toListRow } from "./queue-queries.ts";

/*
 * The rows of a CSV export (issue 16 D): a whole folder, or the matches of a search within one,
 * in the lists' order (created_at desc, order_id desc) and with the lists' display values
 * (QUEUE-6). A folder may hold hundreds of thousands of orders, so it is read in keyset batches:
 * each batch starts after the last row of the one before, an index range scan however deep the
 * export is (an OFFSET would rescan everything before it), and only one batch is held at a time.
 * The folder and search rules are queue-queries.ts's own, imported, so an export holds exactly
 * what the screen lists.
 */

const { orders: ORDERS } = QUEUE_TABLES;

/** Rows per statement: small enough to hold, large enough that round trips do not dominate. */
export const EXPORT_BATCH_SIZE = 1_000;

export interface QueueExportParams extends QueueViewer {
  readonly folderName: QueueKey;
  /** A search within the folder (QUEUE-2's rule); empty or absent exports the folder. */
  readonly searchVal?: string | undefined;
  /** Future Orders: one month's table (ADMIN-3). */
  readonly processMonth?: string | undefined;
  readonly batchSize?: number | undefined;
}

const termOf = (params: QueueExportParams) => (params.searchVal ?? "").trim().toLowerCase();

/** The folder's rule, with the search's when there is one. */
const whereOf = (params: QueueExportParams, add: (value: unknown) => string): string => {
  const folder = folderWhere(params.folderName, params, add, params.processMonth);
  const term = termOf(params);
  return term === "" ? folder : `${folder} and search_text like ${add(likePattern(term))}`;
};

/**
 * How many rows the export holds now (the audit's `rows`): the folder's count (QUEUE-7, from the
 * counts tables), or the search's matches.
 */
export const countQueueExport = async (query: Query, params: QueueExportParams): Promise<number> => {
  if (termOf(params) === "") return folderTotal(query, params.folderName, params, params.processMonth);
  const { values, add } = parameters();
  const [row] = await query(`select count(*)::int8 as total from ${ORDERS} o where ${whereOf(params, add)}`, values);
  return Number(row?.total ?? 0);
};

/**
 * The export's rows, one batch at a time, newest first. The cursor is the last row's created_at
 * as PostgreSQL's own text (microseconds kept: the list's ISO text stops at milliseconds, and two
 * orders within one millisecond would otherwise be skipped or repeated) and its order id, which
 * breaks ties. Stopping the iteration (a client that went away) stops the reads.
 */
export async function* queueExportBatches(query: Query, params: QueueExportParams): AsyncGenerator<QueueListRow[]> {
  const batchSize = Math.max(1, Math.floor(params.batchSize ?? EXPORT_BATCH_SIZE));
  const toRow = toListRow(params.folderName);
  let after: { readonly createdAt: string; readonly orderId: string } | undefined;
  for (;;) {
    const { values, add } = parameters();
    const where = whereOf(params, add);
    const keyset = after === undefined ? "" : ` and (o.created_at, o.order_id) < (${add(after.createdAt)}::timestamptz, ${add(after.orderId)}::text)`;
    const rows = await query(
      `select ${QUEUE_ORDERS.select}, o.created_at::text as cursor_created_at from ${ORDERS} o
        where ${where}${keyset}
        order by o.created_at desc, o.order_id desc limit ${add(batchSize)}`,
      values,
    );
    if (rows.length > 0) yield rows.map(toRow);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { createdAt: String(last.cursor_created_at), orderId: String(last.order_id) };
  }
}

export interface ReportExportParams {
  /** Order Processed is a list of orders, read in batches instead (reports/processed-orders-export.ts). */
  readonly report: Exclude<ReportName, "order-processed">;
  readonly fromDate?: string | undefined;
  readonly toDate?: string | undefined;
  /** YYYY-MM-DD, UTC: which orders are still future orders (ADMIN-4). */
  readonly today: string;
}

export type ReportExportRows =
  | { readonly report: "country-orders"; readonly rows: readonly CountryOrdersRow[] }
  | { readonly report: "processed-by"; readonly rows: readonly ProcessedByRow[] };

/**
 * A report's table as its screen shows it (ADMIN-4, ADMIN-5). These are aggregates (a row per
 * country, a row per member of staff), small whatever the range, so they are read whole.
 */
export const reportExportRows = async (query: Query, params: ReportExportParams): Promise<ReportExportRows> => {
  const range = { fromDate: params.fromDate, toDate: params.toDate };
  switch (params.report) {
    case "country-orders":
      return { report: params.report, rows: await countryOrders(query, { ...range, today: params.today }) };
    case "processed-by":
      return { report: params.report, rows: await processedBy(query, range) };
  }
};
