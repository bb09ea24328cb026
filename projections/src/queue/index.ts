/*
 * The queues read model: folder counts (SHELL-5), the order lists and their search (QUEUE-1..7)
 * and the future-orders calendar (ADMIN-3).
 */
export { queueProjection, QUEUE_TABLES } from "./queue-projection.ts";
export { folderCounts, ordersList, searchOrders, selectOrders, futureMonths } from "./queue-queries.ts";
export { QUEUE_KEYS, COUNT_FIELD_OF, queueKeyOf, isInFolder, type QueueKey, type QueueViewer } from "./queue-folders.ts";
// The CSV export's rows (issue 16 D): keyset batches of a folder or search, and the reports' tables.
export { countQueueExport, queueExportBatches, reportExportRows, type QueueExportParams, type ReportExportRows } from "./queue-export.ts";
// The pure fold of one queue row, for readers that replay the log themselves (the audit's folder at a moment).
export { evolveQueueRow, type QueueRow } from "./queue-projection.ts";
