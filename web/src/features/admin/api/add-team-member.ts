import type { Body, AddTeamMemberRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";

export interface TeamMemberInput {
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly type: string;
}

/** ADMIN-1: POST /admin/add-team-member; the answer is shown as it came. */
export const addTeamMember = (input: TeamMemberInput) => apiRequest("POST", "/admin/add-team-member", { body: input satisfies Body<typeof AddTeamMemberRequest> });
