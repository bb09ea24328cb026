import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import type { PageSize } from "../queue-search.ts";

/** A line of the Order Processed list (ADMIN-7): who uploaded the order's document last, and when. */
export interface ProcessedOrder {
  readonly order_id: string;
  readonly processed_by_id: string;
  readonly processed_by: string;
  /** ISO 8601 UTC. */
  readonly processed_at: string;
  /** The status name ("AwaitingGovt"). */
  readonly status: string;
  readonly processing_mode: string;
  /** YYYY-MM-DD */
  readonly processing_date: string;
  readonly citizenship: string;
  readonly created_at: string;
}

export type ProcessedOrdersAnswer =
  | { readonly ok: true; readonly rows: readonly ProcessedOrder[]; readonly total: number }
  | { readonly ok: false; readonly message: string };

/** ADMIN-7: GET /admin/get-processed-orders?page&limit (Admin only; others get the server's refusal). */
export const processedOrdersQuery = (page: number, size: PageSize) =>
  queryOptions({
    // The reports read model owns "processed by" (see lib/query-keys.ts).
    queryKey: [...queryKeys.reports, "processed-orders", { page, size }],
    queryFn: async ({ signal }): Promise<ProcessedOrdersAnswer> => {
      const query = new URLSearchParams({ page: String(page), limit: String(size) });
      const answer = await apiRequest<{ list?: readonly ProcessedOrder[]; total?: number } | null>("GET", `/admin/get-processed-orders?${query}`, {
        signal,
      });
      if (answer.status !== 1) return { ok: false, message: answer.message };
      const rows = answer.data?.list ?? [];
      return { ok: true, rows, total: answer.data?.total ?? rows.length };
    },
  });
