import type { TeamMemberRow } from "@etd/contract";
import { TEAM } from "@etd/contract/endpoints";
import { endpointQuery } from "./endpoint-query.ts";

/** A row of the Team Member List (ADMIN-1), the contract's; `password` is the server's fixed mask. */
export type TeamMember = TeamMemberRow;

/** The team (ADMIN-1): the Manage Team screens list it, the Audit area's staff pickers choose from it. */
export const teamMembersQuery = () => endpointQuery(TEAM.getTeamMemberList, {});

/** The types the Type select offers (000 §5): fixed by the server's code, so they cannot change while the app runs. */
export const teamMemberTypesQuery = () => ({ ...endpointQuery(TEAM.getTeamMemberTypes, {}), staleTime: Infinity });
