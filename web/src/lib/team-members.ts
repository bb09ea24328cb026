import { queryOptions } from "@tanstack/react-query";
import type { TeamMemberRow } from "@etd/contract";
import { apiRequest } from "./api-client.ts";
import { queryKeys } from "./query-keys.ts";
import { queryRequest } from "./read-your-writes.ts";

/** A row of the Team Member List (ADMIN-1), the contract's; `password` is the server's fixed mask. */
export type TeamMember = TeamMemberRow;

/** The team (ADMIN-1): the Manage Team screens list it, the Audit area's staff pickers choose from it. */
export const teamMembersQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.staff, "members"],
    queryFn: (context) => apiRequest<readonly TeamMember[] | null>("GET", "/admin/get-team-member-list", queryRequest(context)),
  });
