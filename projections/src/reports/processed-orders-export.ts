import type { Query } from "@etd/event-store";
import type { ProcessedOrderRow } from "@etd/contract";
import { EXPORT_BATCH_SIZE } from "../queue/queue-export.ts";
import { REPORT_TABLES } from "./reports-projection.ts";
import { PROCESSED_IN_RANGE, processedOrdersSelect, processedRangeParameters, toProcessedOrderRow, type DayRange } from "./reports-queries.ts";

/*
 * The rows of the Order Processed list's CSV export (ADMIN-7, issue 16 D). Unlike the other
 * reports this is a list of orders, one per order ever processed, so it is read as the queues'
 * exports are (queue-export.ts): keyset batches in the list's order (processed_at desc, order_id
 * desc), each starting after the last row of the one before, through the orders table's partial
 * index on exactly that order (reports-projection.ts), so a deep batch costs what the first does.
 * The rows and the range are the list's own (processedOrdersSelect), so the file holds what the
 * screen pages through.
 */

export interface ProcessedOrderExportParams extends DayRange {
  readonly batchSize?: number | undefined;
}

/** How many rows the export holds now (the audit's `rows`): the orders the list's condition matches. */
export const countProcessedOrderExport = async (query: Query, range: DayRange): Promise<number> => {
  const [row] = await query(`select count(*)::int8 as total from ${REPORT_TABLES.orders} o where ${PROCESSED_IN_RANGE}`, processedRangeParameters(range));
  return Number(row?.total ?? 0);
};

/**
 * The export's rows, one batch at a time, the latest upload first. The cursor is the last row's
 * processed_at as PostgreSQL's own text (microseconds kept: the row's ISO text stops at
 * milliseconds, and two uploads within one millisecond would otherwise be skipped or repeated)
 * and its order id, which breaks ties. Stopping the iteration stops the reads.
 */
export async function* processedOrderExportBatches(query: Query, params: ProcessedOrderExportParams = {}): AsyncGenerator<ProcessedOrderRow[]> {
  const batchSize = Math.max(1, Math.floor(params.batchSize ?? EXPORT_BATCH_SIZE));
  const range = processedRangeParameters(params);
  let after: { readonly processedAt: string; readonly orderId: string } | undefined;
  for (;;) {
    const rows = await query(
      `${processedOrdersSelect({
        columns: ", o.processed_at::text as cursor_processed_at",
        and: after === undefined ? "" : " and (o.processed_at, o.order_id) < ($4::timestamptz, $5::text)",
      })}
      order by o.processed_at desc, o.order_id desc limit $3`,
      after === undefined ? [...range, batchSize] : [...range, batchSize, after.processedAt, after.orderId],
    );
    if (rows.length > 0) yield rows.map(toProcessedOrderRow);
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { processedAt: String(last.cursor_processed_at), orderId: String(last.order_id) };
  }
}
