import { queryOptions } from "@tanstack/react-query";
import type { FutureMonthTile } from "@etd/contract";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { queryRequest } from "../../../lib/read-your-writes.ts";

/** A month tile of the future-orders calendar (ADMIN-3), as the contract declares it. */
export type FutureMonth = FutureMonthTile;

export type FutureMonthsAnswer = { readonly ok: true; readonly months: readonly FutureMonth[] } | { readonly ok: false; readonly message: string };

/** ADMIN-3: GET /admin/get-future-months: twelve tiles, January to December, with counts by process month. */
export const futureMonthsQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.queue, "future-months"],
    queryFn: async (context): Promise<FutureMonthsAnswer> => {
      const answer = await apiRequest<readonly FutureMonth[] | null>("GET", "/admin/get-future-months", queryRequest(context));
      return answer.status === 1 ? { ok: true, months: answer.data ?? [] } : { ok: false, message: answer.message };
    },
  });
