import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { rangeBody, type DayRange } from "./day-range.ts";

/** One row of the Processed By report (001 §3): who uploaded orders' documents, and how many. */
export interface ProcessedByCount {
  readonly processed_by_id: string;
  readonly processed_by: string;
  readonly count: number;
}

/** ADMIN-5: POST /admin/get-processed-by-count. */
export const processedByQuery = (range: DayRange) =>
  queryOptions({
    queryKey: [...queryKeys.reports, "processed-by", rangeBody(range)],
    queryFn: ({ signal }) => apiRequest<readonly ProcessedByCount[] | null>("POST", "/admin/get-processed-by-count", { body: rangeBody(range), signal }),
  });
