import { queryOptions } from "@tanstack/react-query";
import type { CountryOrdersRow } from "@etd/contract";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { rangeBody, type DayRange } from "./day-range.ts";
import { queryRequest } from "../../../lib/read-your-writes.ts";

/** One row of the Country Orders List (001 §3), the contract's. */
export type CountryOrders = CountryOrdersRow;

/** ADMIN-4: POST /admin/get-country-order-list. */
export const countryOrdersQuery = (range: DayRange) =>
  queryOptions({
    queryKey: [...queryKeys.reports, "country-orders", rangeBody(range)],
    queryFn: (context) => apiRequest<readonly CountryOrders[] | null>("POST", "/admin/get-country-order-list", { body: rangeBody(range), ...queryRequest(context) }),
  });
