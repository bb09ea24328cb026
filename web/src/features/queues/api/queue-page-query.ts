import { queryOptions } from "@tanstack/react-query";
import { queryKeys } from "../../../lib/query-keys.ts";
import type { PageSize } from "../queue-search.ts";
import type { QueueKey } from "../queue-screens.ts";
import { getOrdersList } from "./get-orders-list.ts";
import { searchOrders } from "./search-orders.ts";
import { queryRequest } from "../../../lib/read-your-writes.ts";

export interface QueuePageParams {
  readonly page: number;
  readonly size: PageSize;
  /** The search box's text; the folder's plain list when blank. */
  readonly search: string;
  /** Future orders only: one process month, "2025-04". */
  readonly processMonth?: string | undefined;
}

/**
 * The one query a queue screen shows (["queue", "list" | "search", queueKey, …]): the folder's
 * page, or the search's page while the box holds text. Shared by the route loader and the screen
 * so both read the same cache entry.
 */
export const queuePageQuery = (queueKey: QueueKey, { page, size, search, processMonth }: QueuePageParams, userName: string) => {
  const searchVal = search.trim();
  return queryOptions({
    queryKey: [...queryKeys.queue, searchVal === "" ? "list" : "search", queueKey, { page, size, searchVal, processMonth }],
    queryFn: (context) =>
      searchVal === ""
        ? getOrdersList({ queueKey, page, size, userName, processMonth }, queryRequest(context))
        : searchOrders({ queueKey, searchVal, page, size, userName, processMonth }, queryRequest(context)),
  });
};
