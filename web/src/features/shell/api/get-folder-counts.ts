import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** The counts object of 000 §3 (SHELL-5): one number per folder; My Orders is the caller's. */
export interface FolderCounts {
  readonly myOrdersCount: number;
  readonly newOrdersCount: number;
  readonly priorityOrdersCount: number;
  readonly pendingOrdersCount: number;
  readonly completedOrdersCount: number;
  readonly awaitingOrdersCount: number;
  readonly awaitingGovtCount: number;
  readonly futureOrdersCount: number;
  readonly contactCustomerOrdersCount: number;
  readonly customerCalledCount: number;
  readonly deletedOrdersCount: number;
  readonly allOrdersCount: number;
  readonly refundOrdersCount: number;
  readonly chargeBack: number;
}

/** ["queue", "folder-counts"]: the queue read model; refreshed by the live feed and on every route change. */
export const folderCountsQuery = (userName: string) =>
  queryOptions({
    queryKey: [...queryKeys.queue, "folder-counts"],
    queryFn: async ({ signal }) => {
      const answer = await apiRequest<FolderCounts>("GET", `/admin/get-all-folder-count?userName=${encodeURIComponent(userName)}`, { signal });
      // A refusal keeps the badges empty rather than showing zeros that are not true.
      return answer.status === 1 ? answer.data : undefined;
    },
  });
