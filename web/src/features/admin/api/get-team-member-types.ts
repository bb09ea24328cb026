import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { queryRequest } from "../../../lib/read-your-writes.ts";

/** The types the Type select offers (000 §5), as the server lists them. */
export const teamMemberTypesQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.staff, "types"],
    queryFn: (context) => apiRequest<readonly string[] | null>("GET", "/admin/get-team-member-type", queryRequest(context)),
    // The roles are fixed by the server's code; they do not change while the app runs.
    staleTime: Infinity,
  });
