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
  futureMonths,
  type QueueListRow,
  type QueuePageSize,
  type OrdersListParams,
  type OrdersPage,
  type SearchOrdersParams,
  type QueueSearchResult,
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
// The pure fold of one queue row, for readers that replay the log themselves (the audit's folder at a moment).
export { evolveQueueRow, type QueueRow } from "./queue-row.ts";
export { fullName } from "./queue-display.ts";
