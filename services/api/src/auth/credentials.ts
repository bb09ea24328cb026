import type { SqlDriver } from "@etd/event-store";
import type { Role, StaffId } from "@etd/events";

/*
 * Sign-in credentials, kept beside the event store and never in it: a password hash must not enter
 * the log (DESIGN §3). The table is also where "one account per e-mail" is enforced, because that
 * rule spans every staff stream and no single decider can see it.
 *
 * `session_generation` grows with every password change and deletion; a token carries the
 * generation it was issued under, so raising it ends every earlier session at once.
 */

export const CREDENTIALS_SQL = /* sql */ `
create table if not exists staff_credentials (
  staff_id text primary key,
  email text not null,
  name text not null,
  role text not null,
  password_hash text not null,
  session_generation integer not null default 1,
  deleted boolean not null default false,
  updated_at timestamptz not null default now()
);
create unique index if not exists staff_credentials_email on staff_credentials (lower(email)) where not deleted;
`;

export interface Credential {
  readonly staffId: StaffId;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly passwordHash: string;
  readonly sessionGeneration: number;
}

type Row = Record<string, unknown>;

const toCredential = (row: Row): Credential => ({
  staffId: row.staff_id as StaffId,
  email: row.email as string,
  name: row.name as string,
  role: row.role as Role,
  passwordHash: row.password_hash as string,
  sessionGeneration: Number(row.session_generation),
});

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === "23505";

export interface Credentials {
  findByEmail(email: string): Promise<Credential | undefined>;
  findById(staffId: string): Promise<Credential | undefined>;
  /** Any live account yet? Decides whether a first admin or demo staff must be created. */
  isEmpty(): Promise<boolean>;
  /** "email_taken" when another live account uses the address (case-insensitively). */
  add(credential: Omit<Credential, "sessionGeneration">): Promise<"added" | "email_taken">;
  updateProfile(
    staffId: string,
    profile: { email: string; name: string; role: Role },
  ): Promise<"updated" | "email_taken">;
  /** Sets the hash and ends every session issued before. */
  setPassword(staffId: string, passwordHash: string): Promise<void>;
  /** The account can no longer sign in and its sessions end; the address becomes free again. */
  remove(staffId: string): Promise<void>;
}

export const createCredentials = async (db: SqlDriver): Promise<Credentials> => {
  await db.query(CREDENTIALS_SQL);
  const one = async (text: string, params: unknown[]) => {
    const rows = await db.query(text, params);
    return rows[0] ? toCredential(rows[0]) : undefined;
  };
  return {
    findByEmail: (email) =>
      one("select * from staff_credentials where lower(email) = lower($1) and not deleted", [email]),
    findById: (staffId) => one("select * from staff_credentials where staff_id = $1 and not deleted", [staffId]),
    isEmpty: async () => (await db.query("select 1 from staff_credentials where not deleted limit 1")).length === 0,
    add: async ({ staffId, email, name, role, passwordHash }) => {
      try {
        await db.query(
          `insert into staff_credentials (staff_id, email, name, role, password_hash) values ($1, $2, $3, $4, $5)`,
          [staffId, email, name, role, passwordHash],
        );
        return "added";
      } catch (error) {
        if (isUniqueViolation(error)) return "email_taken";
        throw error;
      }
    },
    updateProfile: async (staffId, { email, name, role }) => {
      try {
        await db.query(
          `update staff_credentials set email = $2, name = $3, role = $4, updated_at = now() where staff_id = $1`,
          [staffId, email, name, role],
        );
        return "updated";
      } catch (error) {
        if (isUniqueViolation(error)) return "email_taken";
        throw error;
      }
    },
    setPassword: async (staffId, passwordHash) => {
      await db.query(
        `update staff_credentials
            set password_hash = $2, session_generation = session_generation + 1, updated_at = now()
          where staff_id = $1`,
        [staffId, passwordHash],
      );
    },
    remove: async (staffId) => {
      await db.query(
        `update staff_credentials
            set deleted = true, session_generation = session_generation + 1, updated_at = now()
          where staff_id = $1`,
        [staffId],
      );
    },
  };
};
