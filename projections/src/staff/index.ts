export { staffProjection, STAFF_TABLES } from "./staff-projection.ts";
export { PASSWORD_MASK, staffMember, staffMembers, type TeamMemberInfo, type TeamMemberRow } from "./staff-queries.ts";
