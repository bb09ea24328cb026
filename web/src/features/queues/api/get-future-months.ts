import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** A month tile of the future-orders calendar (ADMIN-3). */
export interface FutureMonth {
  /** 1 (January) to 12 (December). */
  readonly month: number;
  readonly name: string;
  /** "2025-04": the process month the tile opens. */
  readonly processMonth: string;
  readonly count: number;
}

export type FutureMonthsAnswer = { readonly ok: true; readonly months: readonly FutureMonth[] } | { readonly ok: false; readonly message: string };

/** ADMIN-3: GET /admin/get-future-months: twelve tiles, January to December, with counts by process month. */
export const futureMonthsQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.queue, "future-months"],
    queryFn: async ({ signal }): Promise<FutureMonthsAnswer> => {
      const answer = await apiRequest<readonly FutureMonth[] | null>("GET", "/admin/get-future-months", { signal });
      return answer.status === 1 ? { ok: true, months: answer.data ?? [] } : { ok: false, message: answer.message };
    },
  });
