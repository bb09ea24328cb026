import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** A row of the Team Member List (ADMIN-1); `password` is the server's fixed mask. */
export interface TeamMember {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly type: string;
}

export const teamMembersQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.team, "members"],
    queryFn: ({ signal }) => apiRequest<readonly TeamMember[] | null>("GET", "/admin/get-team-member-list", { signal }),
  });
