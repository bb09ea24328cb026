import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { rangeBody, type DayRange } from "./day-range.ts";

/** One row of the Country Orders List (001 §3). */
export interface CountryOrders {
  readonly citizenship_id: string;
  readonly citizenship: string;
  readonly count: number;
  readonly standard_count: number;
  readonly priority_count: number;
  readonly future_count: number;
}

/** ADMIN-4: POST /admin/get-country-order-list. */
export const countryOrdersQuery = (range: DayRange) =>
  queryOptions({
    queryKey: [...queryKeys.reports, "country-orders", rangeBody(range)],
    queryFn: ({ signal }) => apiRequest<readonly CountryOrders[] | null>("POST", "/admin/get-country-order-list", { body: rangeBody(range), signal }),
  });
