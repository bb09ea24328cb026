/*
 * The queues read model: folder counts (SHELL-5), the order lists and their search (QUEUE-1..7)
 * and the future-orders calendar (ADMIN-3).
 */
export { queueProjection, QUEUE_TABLES } from "./queue-projection.ts";
export {
  folderCounts,
  folderTotal,
  ordersList,
  searchOrders,
  selectOrders,
  futureMonths,
  type QueueListRow,
  type QueuePageSize,
  type OrdersListParams,
  type OrdersPage,
  type SearchOrdersParams,
  type QueueSearchResult,
  type SelectOrdersParams,
  type SelectedOrder,
  type FutureMonthTile,
  type FutureMonthsParams,
} from "./queue-queries.ts";
export {
  QUEUE_KEYS,
  COUNT_FIELD_OF,
  queueKeyOf,
  isInFolder,
  type QueueKey,
  type FolderCounts,
  type QueueViewer,
  type QueueFolderFacts,
} from "./queue-folders.ts";
// The CSV export's rows (issue 16 D): keyset batches of a folder or search, and the reports' tables.
export {
  countQueueExport,
  queueExportBatches,
  reportExportRows,
  EXPORT_BATCH_SIZE,
  type QueueExportParams,
  type ReportExportParams,
  type ReportExportRows,
} from "./queue-export.ts";
// The pure fold of one queue row, for readers that replay the log themselves (the audit's folder at a moment).
export { evolveQueueRow, type QueueRow } from "./queue-row.ts";
export { fullName } from "./queue-display.ts";
