export { reportsProjection, REPORT_TABLES } from "./reports-projection.ts";
export {
  countryOrders,
  processedBy,
  processedOrders,
  type CountryOrdersRow,
  type DayRange,
  type ProcessedByRow,
  type ProcessedOrderRow,
  type ProcessedOrdersPage,
  type ProcessedPageSize,
} from "./reports-queries.ts";
// The Order Processed list's CSV export (issue 16 D): keyset batches in the list's order.
export { countProcessedOrderExport, processedOrderExportBatches, type ProcessedOrderExportParams } from "./processed-orders-export.ts";
