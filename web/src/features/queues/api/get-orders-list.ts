import { apiRequest, type RequestOptions } from "../../../lib/api-client.ts";
import type { PageSize } from "../queue-search.ts";
import type { QueueKey } from "../queue-screens.ts";
import type { QueuePageAnswer, QueueRow } from "./queue-row.ts";

export interface OrdersListParams {
  readonly queueKey: QueueKey;
  readonly page: number;
  readonly size: PageSize;
  /** 000 §7 sends it; the server lists the signed-in member's orders whatever it says. */
  readonly userName: string;
  /** Future orders only: one process month, "2025-04". */
  readonly processMonth?: string | undefined;
}

/**
 * QUEUE-5: GET /admin/get-orders-list/{queueKey}?page&limit&delay=1&userName. The answer's total
 * is the folder's count (QUEUE-7), so paging needs no second call.
 */
export const getOrdersList = async (
  { queueKey, page, size, userName, processMonth }: OrdersListParams,
  request: Pick<RequestOptions, "signal" | "readAfter"> = {},
): Promise<QueuePageAnswer> => {
  const query = new URLSearchParams({ page: String(page), limit: String(size), delay: "1", userName });
  if (processMonth !== undefined) query.set("processMonth", processMonth);
  const answer = await apiRequest<readonly QueueRow[] | null>("GET", `/admin/get-orders-list/${queueKey}?${query}`, request);
  if (answer.status !== 1) return { ok: false, message: answer.message };
  const rows = answer.data ?? [];
  return { ok: true, page: { rows, total: typeof answer.total === "number" ? answer.total : rows.length } };
};
