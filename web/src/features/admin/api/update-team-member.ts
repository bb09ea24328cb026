import type { Body, UpdateTeamMemberRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";
import type { TeamMemberInput } from "./add-team-member.ts";

/** ADMIN-1: POST /admin/update-team-member; an empty password keeps the current one. */
export const updateTeamMember = (input: TeamMemberInput & { readonly tmId: string }) =>
  apiRequest("POST", "/admin/update-team-member", { body: input satisfies Body<typeof UpdateTeamMemberRequest> });
