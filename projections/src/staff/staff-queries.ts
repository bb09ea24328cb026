import type { Query } from "@etd/event-store";
import type { Role } from "@etd/events";
import { PASSWORD_MASK, type TeamMemberInfo, type TeamMemberRow } from "@etd/contract";
import { STAFF_TABLES } from "./staff-projection.ts";

/*
 * Reads for Manage Team (ADMIN-1). The list's Password column (000 §2) shows a fixed mask, and
 * the edit form gets an empty password, which update-team-member reads as "keep the current
 * one": were the form prefilled with the mask, saving it unchanged would set the mask as the
 * password. No password or hash exists on the read side to leak in the first place.
 */

/** The list's rows, the edit form's member and the Password column's mask are the wire contract's. */
export { PASSWORD_MASK, type TeamMemberInfo, type TeamMemberRow } from "@etd/contract";

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const COLUMNS = `staff_id, name, email, role, ${ISO("added_at")} as added_at, ${ISO("updated_at")} as updated_at,
                 ${ISO("password_changed_at")} as password_changed_at, two_factor, capacity`;

/**
 * A member's capacity (the most open assigned orders Take next lets them hold; null: no limit, or no
 * such member) as a scalar subquery on the member id in `parameter` ("$1"), for a statement
 * that reads it with other things (Take next's claim, in one round trip).
 */
export const capacitySql = (parameter: string): string => `(select capacity from ${STAFF_TABLES.members} where staff_id = ${parameter} and not deleted)`;

/** A member as this read model knows them; their open orders are the queue read model's (open-orders.ts). */
type MemberFacts<T> = Omit<T, "openOrders">;

const memberOf = (row: Record<string, unknown>): MemberFacts<Omit<TeamMemberRow, "password">> => ({
  id: String(row.staff_id),
  name: String(row.name),
  email: String(row.email),
  type: row.role as Role,
  added_at: String(row.added_at),
  updated_at: String(row.updated_at),
  password_changed_at: (row.password_changed_at as string | null) ?? null,
  twoFactor: row.two_factor === true,
  capacity: row.capacity === null || row.capacity === undefined ? null : Number(row.capacity),
});

/** The Team Member List: members not deleted, in the order they were added. */
export const staffMembers = async (query: Query): Promise<MemberFacts<TeamMemberRow>[]> => {
  const rows = await query(`select ${COLUMNS} from ${STAFF_TABLES.members} where not deleted order by added_at, staff_id`);
  return rows.map((row) => ({ ...memberOf(row), password: PASSWORD_MASK }));
};

/** One member for the edit form; undefined when there is none, or they were deleted. */
export const staffMember = async (query: Query, id: string): Promise<MemberFacts<TeamMemberInfo> | undefined> => {
  const [row] = await query(`select ${COLUMNS} from ${STAFF_TABLES.members} where staff_id = $1 and not deleted`, [id]);
  return row ? { ...memberOf(row), password: "" } : undefined;
};
