import type { Body, DeleteTeamMemberRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";

/** ADMIN-1: PUT /admin/delete-team-member; the member's sessions end. */
export const deleteTeamMember = (teamMemberId: string) => apiRequest("PUT", "/admin/delete-team-member", { body: { teamMemberId } satisfies Body<typeof DeleteTeamMemberRequest> });
