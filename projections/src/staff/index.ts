export { staffProjection } from "./staff-projection.ts";
export { capacitySql, PASSWORD_MASK, staffMember, staffMembers } from "./staff-queries.ts";
export { openOrdersByMember, openOrdersOf, openOrdersSql } from "./open-orders.ts";
