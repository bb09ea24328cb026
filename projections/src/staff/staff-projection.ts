import type { Query } from "@etd/event-store";
import type { Role, StaffEvent } from "@etd/events";
import type { ProjectedEvent, Projection, TableName } from "../engine/projection.ts";

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
}

const migrate = async (query: Query, table: TableName): Promise<void> => {
  const members = table(STAFF_TABLES.members);
  await query(`
    create table ${members} (
      staff_id text primary key,
      name text not null,
      email text not null,
      role text not null,
      deleted boolean not null default false,
      added_at timestamptz not null,
      updated_at timestamptz not null,
      password_changed_at timestamptz,
      deleted_at timestamptz,
      two_factor boolean not null default false
    )`);
  await query(`create index ${members}_listed on ${members} (added_at, staff_id) where not deleted`);
};

const isStaffEvent = (event: ProjectedEvent["event"]): event is StaffEvent =>
  event.type === "StaffMemberAdded" ||
  event.type === "StaffMemberUpdated" ||
  event.type === "StaffMemberDeleted" ||
  event.type === "PasswordChanged" ||
  event.type === "TwoFactorEnabled" ||
  event.type === "TwoFactorReset" ||
  event.type === "RecoveryCodeUsed" ||
  event.type === "DataExported";

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

const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const load = async (query: Query, table: TableName, staffIds: readonly string[]): Promise<Map<string, TeamMember>> => {
  const loaded = new Map<string, TeamMember>();
  if (staffIds.length === 0) return loaded;
  const rows = await query(
    `select staff_id, name, email, role, deleted, ${ISO("added_at")} as added_at, ${ISO("updated_at")} as updated_at,
            ${ISO("password_changed_at")} as password_changed_at, ${ISO("deleted_at")} as deleted_at, two_factor
       from ${table(STAFF_TABLES.members)} where staff_id = any($1::text[])`,
    [staffIds],
  );
  for (const row of rows) {
    loaded.set(String(row.staff_id), {
      staffId: String(row.staff_id),
      name: String(row.name),
      email: String(row.email),
      role: row.role as Role,
      deleted: row.deleted === true,
      addedAt: String(row.added_at),
      updatedAt: String(row.updated_at),
      passwordChangedAt: row.password_changed_at as string | null,
      deletedAt: row.deleted_at as string | null,
      twoFactor: row.two_factor === true,
    });
  }
  return loaded;
};

const save = async (query: Query, table: TableName, members: readonly TeamMember[]): Promise<void> => {
  if (members.length === 0) return;
  await query(
    `insert into ${table(STAFF_TABLES.members)}
       (staff_id, name, email, role, deleted, added_at, updated_at, password_changed_at, deleted_at, two_factor)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::timestamptz[],
                          $7::timestamptz[], $8::timestamptz[], $9::timestamptz[], $10::boolean[])
     on conflict (staff_id) do update set
       name = excluded.name, email = excluded.email, role = excluded.role, deleted = excluded.deleted,
       updated_at = excluded.updated_at, password_changed_at = excluded.password_changed_at,
       deleted_at = excluded.deleted_at, two_factor = excluded.two_factor`,
    [
      members.map((m) => m.staffId),
      members.map((m) => m.name),
      members.map((m) => m.email),
      members.map((m) => m.role),
      members.map((m) => m.deleted),
      members.map((m) => m.addedAt),
      members.map((m) => m.updatedAt),
      members.map((m) => m.passwordChangedAt),
      members.map((m) => m.deletedAt),
      members.map((m) => m.twoFactor),
    ],
  );
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
  // 2: the two_factor column (issue 16); the new version rebuilds the table from the log.
  version: 2,
  tables: Object.values(STAFF_TABLES),
  migrate,
  apply,
};
