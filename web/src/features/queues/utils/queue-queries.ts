import { queryOptions } from "@tanstack/react-query";
import type { DueFilter, QueueListRow, QueueSort } from "@etd/contract";
import { QUEUES } from "@etd/contract/endpoints";
import { callApi, queryRequest, type Envelope } from "../../../lib/api-client.ts";
import { endpointQuery } from "../../../lib/endpoint-query.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { searchWindow, type PageSize } from "../queue-search.ts";
import type { QueueKey } from "../queue-screens.ts";

/**
 * A row of a queue list as the server sends it: the contract's list row (000 §3 list item plus
 * the display fields of 001 §3). The server formats every date for its list (QUEUE-6), so the
 * table shows them as they come.
 */
export type QueueRow = QueueListRow;

/** One page of a list: the rows, and the total the pagination counts (QUEUE-7). */
export interface QueuePage {
  readonly rows: readonly QueueRow[];
  readonly total: number;
}

/** What a list call answered: its page, or the server's refusal to show it (e.g. 403 on Order History). */
export type QueuePageAnswer = { readonly ok: true; readonly page: QueuePage } | { readonly ok: false; readonly message: string };

export interface QueuePageParams {
  readonly page: number;
  readonly size: PageSize;
  /** The search box's text; the folder's plain list when blank. */
  readonly search: string;
  /** Future orders only: one process month, "2025-04". */
  readonly processMonth?: string | undefined;
  /** Issue 27: the due filter and the due order, sent only when chosen. */
  readonly due?: DueFilter | undefined;
  readonly sort?: QueueSort | undefined;
}

/** A list's or a search's rows, with the total the server sends beside `data` (the folder's count, or the matches). */
const pageOf = (answer: Envelope<readonly QueueRow[] | null>): QueuePageAnswer => {
  if (answer.status !== 1) return { ok: false, message: answer.message };
  const rows = answer.data ?? [];
  return { ok: true, page: { rows, total: typeof answer.total === "number" ? answer.total : rows.length } };
};

/**
 * The one query a queue screen shows (["queue", "list" | "search", queueKey, …]): the folder's
 * page (QUEUE-5, GET get-orders-list), or the search's page while the box holds text (QUEUE-2,
 * POST search-order with the rows as `{start, end}`). Shared by the route loader and the screen
 * so both read the same cache entry. `userName` is sent as 000 §7 does; the server lists the
 * signed-in member's orders whatever it says.
 */
export const queuePageQuery = (queueKey: QueueKey, { page, size, search, processMonth, due, sort }: QueuePageParams, userName: string) => {
  const searchVal = search.trim();
  const dueOptions = { ...(due === undefined ? {} : { due }), ...(sort === undefined ? {} : { sort }) };
  return queryOptions({
    queryKey: [...queryKeys.queue, searchVal === "" ? "list" : "search", queueKey, { page, size, searchVal, processMonth, ...dueOptions }],
    queryFn: async (context) =>
      pageOf(
        searchVal === ""
          ? await callApi(
              QUEUES.getOrdersList,
              { params: { orderName: queueKey }, query: { page: String(page), limit: String(size), delay: "1", userName, processMonth, ...dueOptions } },
              queryRequest(context),
            )
          : await callApi(
              QUEUES.searchOrders,
              { body: { ...searchWindow(page, size), searchVal, folderName: queueKey, userName, ...(processMonth ? { processMonth } : {}), ...dueOptions } },
              queryRequest(context),
            ),
      ),
  });
};

/** ADMIN-3: the future-orders calendar's twelve tiles, January to December, with counts by process month. */
export const futureMonthsQuery = () => endpointQuery(QUEUES.getFutureMonths, { query: {} });

/** ADMIN-7: a page of Order Processed (Admin only; others get the server's refusal). */
export const processedOrdersQuery = (page: number, size: PageSize) =>
  endpointQuery(QUEUES.getProcessedOrders, { query: { page: String(page), limit: String(size) } });
