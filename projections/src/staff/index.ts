export { staffProjection } from "./staff-projection.ts";
export { PASSWORD_MASK, staffMember, staffMembers } from "./staff-queries.ts";
