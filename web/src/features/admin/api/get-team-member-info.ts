import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import type { TeamMemberInfo } from "@etd/contract";
import { queryRequest } from "../../../lib/read-your-writes.ts";

/** One member for the edit form (ADMIN-1); the password comes back empty. */
export const teamMemberInfoQuery = (teamMemberId: string) =>
  queryOptions({
    queryKey: [...queryKeys.staff, "member", teamMemberId],
    queryFn: (context) => apiRequest<TeamMemberInfo | null>("GET", `/admin/team-member-info/${encodeURIComponent(teamMemberId)}`, queryRequest(context)),
  });
