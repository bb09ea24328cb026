import type { Query } from "@etd/event-store";
import { isStaffEvent, type Role, type StaffEvent } from "@etd/events";
import type { ProjectedEvent, Projection, TableName } from "../engine/projection.ts";
import { rowTable } from "../engine/row-table.ts";

/*
 * The Team Member List and the edit form (ADMIN-1): one row per staff member from their
 * `staff-{id}` stream. There is no password here, and there never could be: the events only say
 * that a password changed (DESIGN §3), so the row keeps when it last did.
 *
 * A deleted member keeps their row, marked deleted: the list leaves them out, and the audit and
 * the reports still know the name.
 */

export const STAFF_TABLES = { members: "staff_members" } as const;

interface TeamMember {
  readonly staffId: string;
  readonly name: string;
  readonly email: string;
  readonly role: Role;
  readonly deleted: boolean;
  readonly addedAt: string;
  /** The last time anything about the member changed, the password included. */
  readonly updatedAt: string;
  readonly passwordChangedAt: string | null;
  readonly deletedAt: string | null;
  /** Whether the member signs in with a second factor (AUTH-3, issue 16): the team list's 2FA column. */
  readonly twoFactor: boolean;
  /** The most open assigned orders Take next lets the member hold (issue 27); null: no limit. */
  readonly capacity: number | null;
}

/** The member rows, one column a line (engine/row-table.ts). */
const MEMBERS = rowTable<TeamMember>()({
  staff_id: { type: "text", field: "staffId", required: true },
  name: { type: "text", field: "name", required: true },
  email: { type: "text", field: "email", required: true },
  role: { type: "text", field: "role", required: true },
  deleted: { type: "boolean", field: "deleted", required: true },
  added_at: { type: "timestamptz", field: "addedAt", required: true },
  updated_at: { type: "timestamptz", field: "updatedAt", required: true },
  password_changed_at: { type: "timestamptz", field: "passwordChangedAt" },
  deleted_at: { type: "timestamptz", field: "deletedAt" },
  two_factor: { type: "boolean", field: "twoFactor", required: true },
  capacity: { type: "integer", field: "capacity" },
});

const migrate = async (query: Query, table: TableName): Promise<void> => {
  const members = table(STAFF_TABLES.members);
  await query(`create table ${members} (
    ${MEMBERS.ddl}
  )`);
  await query(`create index ${members}_listed on ${members} (added_at, staff_id) where not deleted`);
};

/** The member after this event; `undefined` until they were added. */
const evolve = (member: TeamMember | undefined, event: StaffEvent): TeamMember | undefined => {
  const at = event.metadata.occurredAt;
  if (event.type === "StaffMemberAdded") {
    return member ?? {
      ...profileOf(event.data),
      deleted: false,
      addedAt: at,
      updatedAt: at,
      passwordChangedAt: null,
      deletedAt: null,
      twoFactor: false,
      capacity: null,
    };
  }
  if (!member) return member;
  switch (event.type) {
    case "StaffMemberUpdated":
      return { ...member, ...profileOf(event.data), updatedAt: at };
    case "StaffMemberDeleted":
      return { ...member, deleted: true, deletedAt: at, updatedAt: at };
    case "PasswordChanged":
      return { ...member, passwordChangedAt: at, updatedAt: at };
    case "TwoFactorEnabled":
      return { ...member, twoFactor: true, updatedAt: at };
    case "TwoFactorReset":
      return { ...member, twoFactor: false, updatedAt: at };
    case "StaffCapacitySet":
      return { ...member, capacity: event.data.capacity ?? null, updatedAt: at };
    // Signing in and exporting change nothing the list shows.
    case "RecoveryCodeUsed":
    case "DataExported":
      return member;
  }
};

const profileOf = (data: { staffId: string; name: string; email: string; role: Role }) => ({
  staffId: data.staffId,
  name: data.name,
  email: data.email,
  role: data.role,
});

const load = async (query: Query, table: TableName, staffIds: readonly string[]): Promise<Map<string, TeamMember>> => {
  if (staffIds.length === 0) return new Map();
  const rows = await query(`select ${MEMBERS.select} from ${table(STAFF_TABLES.members)} where staff_id = any($1::text[])`, [staffIds]);
  return new Map(rows.map((row) => [String(row.staff_id), MEMBERS.decode(row)]));
};

const save = async (query: Query, table: TableName, members: readonly TeamMember[]): Promise<void> => {
  if (members.length === 0) return;
  await query(MEMBERS.upsert(table(STAFF_TABLES.members)), [JSON.stringify(members.map(MEMBERS.record))]);
};

const apply = async (events: readonly ProjectedEvent[], query: Query, table: TableName): Promise<void> => {
  const staffEvents = events.map(({ event }) => event).filter(isStaffEvent);
  if (staffEvents.length === 0) return;
  const before = await load(query, table, [...new Set(staffEvents.map((event) => event.data.staffId))]);
  const after = new Map(before);
  for (const event of staffEvents) {
    const next = evolve(after.get(event.data.staffId), event);
    if (next) after.set(next.staffId, next);
  }
  await save(query, table, [...after.values()].filter((member) => member !== before.get(member.staffId)));
};

export const staffProjection: Projection = {
  name: "staff",
  // 2: the two_factor column (issue 16); 3: the capacity column (issue 27). A new version rebuilds
  // the table from the log.
  version: 3,
  tables: Object.values(STAFF_TABLES),
  migrate,
  apply,
};
