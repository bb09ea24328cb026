import { queryOptions } from "@tanstack/react-query";
import type { ProcessedByRow } from "@etd/contract";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { rangeBody, type DayRange } from "./day-range.ts";
import { queryRequest } from "../../../lib/read-your-writes.ts";

/** One row of the Processed By report (001 §3), the contract's: who uploaded orders' documents, and how many. */
export type ProcessedByCount = ProcessedByRow;

/** ADMIN-5: POST /admin/get-processed-by-count. */
export const processedByQuery = (range: DayRange) =>
  queryOptions({
    queryKey: [...queryKeys.reports, "processed-by", rangeBody(range)],
    queryFn: (context) =>
      apiRequest<readonly ProcessedByCount[] | null>("POST", "/admin/get-processed-by-count", { body: rangeBody(range), ...queryRequest(context) }),
  });
