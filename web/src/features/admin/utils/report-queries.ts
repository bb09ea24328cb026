import { QUEUES } from "@etd/contract/endpoints";
import { endpointQuery } from "../../../lib/endpoint-query.ts";

/** A report's range of UTC calendar days, YYYY-MM-DD, both ends included. */
export interface DayRange {
  readonly fromDate?: string | undefined;
  readonly toDate?: string | undefined;
}

/** The body both reports send: empty dates leave that end of the range open (001 §7). */
const rangeBody = (range: DayRange) => ({ fromDate: range.fromDate ?? "", toDate: range.toDate ?? "" });

/** ADMIN-4: orders per country between two days. */
export const countryOrdersQuery = (range: DayRange) => endpointQuery(QUEUES.getCountryOrders, { body: rangeBody(range) });

/** ADMIN-5: orders per staff member who processed them between two days (Admin only). */
export const processedByQuery = (range: DayRange) => endpointQuery(QUEUES.getProcessedByCount, { body: rangeBody(range) });
