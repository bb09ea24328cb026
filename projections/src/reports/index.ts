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
