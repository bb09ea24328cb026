import { queryOptions } from "@tanstack/react-query";
import type { ProcessedOrderRow } from "@etd/contract";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import type { PageSize } from "../queue-search.ts";
import { queryRequest } from "../../../lib/read-your-writes.ts";

/** A line of the Order Processed list (ADMIN-7), the contract's: who uploaded the order's document last, and when. */
export type ProcessedOrder = ProcessedOrderRow;

export type ProcessedOrdersAnswer =
  | { readonly ok: true; readonly rows: readonly ProcessedOrder[]; readonly total: number }
  | { readonly ok: false; readonly message: string };

/** ADMIN-7: GET /admin/get-processed-orders?page&limit (Admin only; others get the server's refusal). */
export const processedOrdersQuery = (page: number, size: PageSize) =>
  queryOptions({
    // The reports read model owns "processed by" (see lib/query-keys.ts).
    queryKey: [...queryKeys.reports, "processed-orders", { page, size }],
    queryFn: async (context): Promise<ProcessedOrdersAnswer> => {
      const query = new URLSearchParams({ page: String(page), limit: String(size) });
      const answer = await apiRequest<{ list?: readonly ProcessedOrder[]; total?: number } | null>("GET", `/admin/get-processed-orders?${query}`, queryRequest(context));
      if (answer.status !== 1) return { ok: false, message: answer.message };
      const rows = answer.data?.list ?? [];
      return { ok: true, rows, total: answer.data?.total ?? rows.length };
    },
  });
