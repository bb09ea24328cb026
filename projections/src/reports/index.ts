export { reportsProjection } from "./reports-projection.ts";
export { countryOrders, processedBy, processedOrders, type ProcessedOrderRow } from "./reports-queries.ts";
// The Order Processed list's CSV export (issue 16 D): keyset batches in the list's order.
export { countProcessedOrderExport, processedOrderExportBatches } from "./processed-orders-export.ts";
