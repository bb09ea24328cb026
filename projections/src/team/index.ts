export { teamProjection, TEAM_TABLES } from "./team-projection.ts";
export { PASSWORD_MASK, teamMember, teamMembers, type TeamMemberInfo, type TeamMemberRow } from "./team-queries.ts";
