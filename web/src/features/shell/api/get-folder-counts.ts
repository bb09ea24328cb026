import { queryOptions } from "@tanstack/react-query";
import type { FolderCounts } from "@etd/contract";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { queryRequest } from "../../../lib/read-your-writes.ts";

/** The counts object of 000 §3 (SHELL-5), the contract's: one number per folder; My Orders is the caller's. */
export type { FolderCounts };

/** ["queue", "folder-counts"]: the queue read model; refreshed by the live feed and on every route change. */
export const folderCountsQuery = (userName: string) =>
  queryOptions({
    queryKey: [...queryKeys.queue, "folder-counts"],
    queryFn: async (context) => {
      const answer = await apiRequest<FolderCounts>("GET", `/admin/get-all-folder-count?userName=${encodeURIComponent(userName)}`, queryRequest(context));
      // A refusal keeps the badges empty rather than showing zeros that are not true.
      return answer.status === 1 ? answer.data : undefined;
    },
  });
