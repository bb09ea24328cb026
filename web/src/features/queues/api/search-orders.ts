import type { Body, SearchOrderRequest } from "@etd/contract/requests";
import { apiRequest, type RequestOptions } from "../../../lib/api-client.ts";
import { searchWindow, type PageSize } from "../queue-search.ts";
import type { QueueKey } from "../queue-screens.ts";
import type { QueuePageAnswer, QueueRow } from "./queue-row.ts";

export interface SearchOrdersParams {
  readonly queueKey: QueueKey;
  readonly searchVal: string;
  readonly page: number;
  readonly size: PageSize;
  readonly userName: string;
  readonly processMonth?: string | undefined;
}

/**
 * QUEUE-2, QUEUE-5: POST /admin/search-order {start, end, searchVal, folderName}: one page of the
 * folder's orders whose id, name, e-mail or phone contains the text, with the number of matches.
 */
export const searchOrders = async (
  { queueKey, searchVal, page, size, userName, processMonth }: SearchOrdersParams,
  request: Pick<RequestOptions, "signal" | "readAfter"> = {},
): Promise<QueuePageAnswer> => {
  const body = { ...searchWindow(page, size), searchVal, folderName: queueKey, userName, ...(processMonth ? { processMonth } : {}) } satisfies Body<typeof SearchOrderRequest>;
  const answer = await apiRequest<readonly QueueRow[] | null>("POST", "/admin/search-order", { body, ...request });
  if (answer.status !== 1) return { ok: false, message: answer.message };
  const rows = answer.data ?? [];
  return { ok: true, page: { rows, total: typeof answer.total === "number" ? answer.total : rows.length } };
};
