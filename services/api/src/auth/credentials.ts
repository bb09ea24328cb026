import { migrateTables, type Query, type SqlDriver } from "@etd/event-store";
import type { Role, StaffId } from "@etd/events";
import { CHALLENGES_SQL, createChallengeTallies, type ChallengeTallies } from "./two-factor-challenge.ts";

/*
 * Sign-in credentials, kept beside the event store and never in it: a password hash must not enter
 * the log (DESIGN §3). Every write happens in the transaction that appends the staff event it
 * belongs to (commands/staff-accounts.ts), so the table never holds an account, a role or an
 * e-mail that the log does not: sign-in and authorization read only what the log recorded.
 *
 * `session_generation` grows with every password change and deletion; a token carries the
 * generation it was issued under, so raising it ends every earlier session at once.
 *
 * Two-factor sign-in (AUTH-3, issue 16, ADR 0024) adds four columns, added in place on databases
 * made before it: `totp_secret` (the enrolled secret) and `totp_pending` (one being set up), both
 * AES-256-GCM ciphertext (auth/two-factor.ts), never plain; `totp_last_step`, the time step of the
 * last accepted code, so that a code is accepted once; `recovery_codes`, the HMAC-SHA256 of each
 * unused recovery code (auth/two-factor.ts). None of them is ever in an event. The same migration
 * creates `two_factor_challenges`: what became of each sign-in challenge, shared by every process
 * (auth/two-factor-challenge.ts).
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
  updated_at timestamptz not null default now(),
  totp_secret text,
  totp_pending text,
  totp_last_step bigint,
  recovery_codes text[]
);
create unique index if not exists staff_credentials_email on staff_credentials (lower(email)) where not deleted;
-- A table from before two-factor sign-in gets its columns once. Only then: an ALTER TABLE takes
-- the table's exclusive lock even when the column exists, and on every start it deadlocked with
-- another API seeding its first admin (a read, then an insert, queued behind the ALTER).
do $b$
begin
  if not exists (select 1 from pg_attribute where attrelid = 'staff_credentials'::regclass and attname = 'recovery_codes' and not attisdropped) then
    alter table staff_credentials add column if not exists totp_secret text;
    alter table staff_credentials add column if not exists totp_pending text;
    alter table staff_credentials add column if not exists totp_last_step bigint;
    alter table staff_credentials add column if not exists recovery_codes text[];
  end if;
end
$b$;
`;

export interface Credential {
  readonly staffId: StaffId;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly passwordHash: string;
  readonly sessionGeneration: number;
  /** The member signs in with a second factor: an enrolled secret is stored. */
  readonly twoFactor: boolean;
}

type Row = Record<string, unknown>;

const toCredential = (row: Row): Credential => ({
  staffId: row.staff_id as StaffId,
  email: row.email as string,
  name: row.name as string,
  role: row.role as Role,
  passwordHash: row.password_hash as string,
  sessionGeneration: Number(row.session_generation),
  twoFactor: row.totp_secret !== null && row.totp_secret !== undefined,
});

/** A member's second factor as stored: ciphertexts and hashes, never plain secrets. */
export interface StoredTwoFactor {
  readonly secret: string | null;
  readonly pending: string | null;
  /** The time step of the last accepted code; null before the first. */
  readonly lastStep: number | null;
  readonly recoveryCodes: readonly string[];
}

/** The reads of the credentials table; every write is an `AccountWrites` call inside an account transaction. */
export interface Credentials {
  findByEmail(email: string): Promise<Credential | undefined>;
  findById(staffId: string): Promise<Credential | undefined>;
  /** Any live account yet? Decides whether a first admin or demo staff must be created. */
  isEmpty(): Promise<boolean>;
  /** What the member's two-factor page shows: on or not, recovery codes left (a plain read, no lock). */
  twoFactorStatus(staffId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number } | undefined>;
  /** The second step's attempts and spent challenges, in the database so that every process sees them. */
  readonly challenges: ChallengeTallies;
  /** The writes, each run on the caller's transaction (`query`), so they commit with the staff event. */
  readonly writes: AccountWrites;
}

export interface AccountWrites {
  /** The live account using this address (case-insensitively), if any. */
  emailOwner(query: Query, email: string): Promise<StaffId | undefined>;
  /** The role of a live account, or undefined once it is deleted. */
  liveRole(query: Query, staffId: StaffId): Promise<Role | undefined>;
  /** Live Admin accounts: the input of "the last Admin stays". */
  countAdmins(query: Query): Promise<number>;
  add(query: Query, credential: Omit<Credential, "sessionGeneration" | "twoFactor">): Promise<void>;
  updateProfile(query: Query, staffId: string, profile: { email: string; name: string; role: Role }): Promise<void>;
  /** Sets the hash and ends every session issued before. */
  setPassword(query: Query, staffId: string, passwordHash: string): Promise<void>;
  /** The account can no longer sign in and its sessions end; the address becomes free again. */
  remove(query: Query, staffId: string): Promise<void>;
  /** The second factor's columns of a live account, locked for this transaction. */
  twoFactorOf(query: Query, staffId: string): Promise<StoredTwoFactor | undefined>;
  /** Replaces the secret being set up (setup); the enrolled one, if any, stays. */
  setPendingSecret(query: Query, staffId: string, sealedSecret: string): Promise<void>;
  /**
   * The pending secret becomes the enrolled one, with its first accepted step and the recovery
   * codes' hashes; every session of the member ends (one opened elsewhere with the password alone
   * is not to outlive the second factor). Answers the new session generation, for the session
   * that enrolled to go on with.
   */
  enableTwoFactor(query: Query, staffId: string, enrolment: { sealedSecret: string; step: number; recoveryHashes: readonly string[] }): Promise<number>;
  /**
   * Records `step` as the last accepted one, only if it is later than the one stored: of two
   * requests with the same code, exactly one sees true.
   */
  acceptStep(query: Query, staffId: string, step: number): Promise<boolean>;
  /** Removes one unused recovery code by its hash; answers how many are left, or undefined when it was not there. */
  useRecoveryCode(query: Query, staffId: string, hash: string): Promise<number | undefined>;
  /** Removes the second factor (Admin reset) and ends every session of the member. */
  resetTwoFactor(query: Query, staffId: string): Promise<void>;
}

const accountWrites: AccountWrites = {
  emailOwner: async (query, email) => {
    const [row] = await query("select staff_id from staff_credentials where lower(email) = lower($1) and not deleted", [email]);
    return row ? (row.staff_id as StaffId) : undefined;
  },
  liveRole: async (query, staffId) => {
    const [row] = await query("select role from staff_credentials where staff_id = $1 and not deleted", [staffId]);
    return row ? (row.role as Role) : undefined;
  },
  countAdmins: async (query) => {
    const [row] = await query("select count(*)::int as admins from staff_credentials where role = 'Admin' and not deleted");
    return Number(row?.admins ?? 0);
  },
  add: async (query, { staffId, email, name, role, passwordHash }) => {
    await query(
      `insert into staff_credentials (staff_id, email, name, role, password_hash) values ($1, $2, $3, $4, $5)`,
      [staffId, email, name, role, passwordHash],
    );
  },
  updateProfile: async (query, staffId, { email, name, role }) => {
    await query(
      `update staff_credentials set email = $2, name = $3, role = $4, updated_at = now() where staff_id = $1`,
      [staffId, email, name, role],
    );
  },
  setPassword: async (query, staffId, passwordHash) => {
    await query(
      `update staff_credentials
          set password_hash = $2, session_generation = session_generation + 1, updated_at = now()
        where staff_id = $1`,
      [staffId, passwordHash],
    );
  },
  remove: async (query, staffId) => {
    await query(
      `update staff_credentials
          set deleted = true, session_generation = session_generation + 1, updated_at = now()
        where staff_id = $1`,
      [staffId],
    );
  },
  twoFactorOf: async (query, staffId) => {
    const [row] = await query(
      `select totp_secret, totp_pending, totp_last_step, recovery_codes from staff_credentials
        where staff_id = $1 and not deleted for update`,
      [staffId],
    );
    if (!row) return undefined;
    return {
      secret: (row.totp_secret as string | null) ?? null,
      pending: (row.totp_pending as string | null) ?? null,
      lastStep: row.totp_last_step === null || row.totp_last_step === undefined ? null : Number(row.totp_last_step),
      recoveryCodes: (row.recovery_codes as string[] | null) ?? [],
    };
  },
  setPendingSecret: async (query, staffId, sealedSecret) => {
    await query(`update staff_credentials set totp_pending = $2, updated_at = now() where staff_id = $1 and not deleted`, [staffId, sealedSecret]);
  },
  enableTwoFactor: async (query, staffId, { sealedSecret, step, recoveryHashes }) => {
    const [row] = await query(
      `update staff_credentials
          set totp_secret = $2, totp_pending = null, totp_last_step = $3, recovery_codes = $4::text[],
              session_generation = session_generation + 1, updated_at = now()
        where staff_id = $1
        returning session_generation`,
      [staffId, sealedSecret, step, recoveryHashes],
    );
    return Number(row!.session_generation);
  },
  acceptStep: async (query, staffId, step) => {
    const rows = await query(
      `update staff_credentials set totp_last_step = $2
        where staff_id = $1 and not deleted and totp_secret is not null and (totp_last_step is null or totp_last_step < $2)
        returning 1 as accepted`,
      [staffId, step],
    );
    return rows.length === 1;
  },
  useRecoveryCode: async (query, staffId, hash) => {
    const [row] = await query(
      `update staff_credentials set recovery_codes = array_remove(recovery_codes, $2), updated_at = now()
        where staff_id = $1 and not deleted and totp_secret is not null and $2 = any(recovery_codes)
        returning coalesce(cardinality(recovery_codes), 0) as remaining`,
      [staffId, hash],
    );
    return row ? Number(row.remaining) : undefined;
  },
  resetTwoFactor: async (query, staffId) => {
    await query(
      `update staff_credentials
          set totp_secret = null, totp_pending = null, totp_last_step = null, recovery_codes = null,
              session_generation = session_generation + 1, updated_at = now()
        where staff_id = $1`,
      [staffId],
    );
  },
};

export const createCredentials = async (db: SqlDriver): Promise<Credentials> => {
  await migrateTables(db, [CREDENTIALS_SQL, CHALLENGES_SQL]);
  const one = async (text: string, params: unknown[]) => {
    const rows = await db.query(text, params);
    return rows[0] ? toCredential(rows[0]) : undefined;
  };
  return {
    findByEmail: (email) =>
      one("select * from staff_credentials where lower(email) = lower($1) and not deleted", [email]),
    findById: (staffId) => one("select * from staff_credentials where staff_id = $1 and not deleted", [staffId]),
    isEmpty: async () => (await db.query("select 1 from staff_credentials where not deleted limit 1")).length === 0,
    twoFactorStatus: async (staffId) => {
      const [row] = await db.query(
        `select totp_secret is not null as enabled, case when totp_secret is null then 0 else coalesce(cardinality(recovery_codes), 0) end as left
           from staff_credentials where staff_id = $1 and not deleted`,
        [staffId],
      );
      return row && { enabled: row.enabled === true, recoveryCodesLeft: Number(row.left) };
    },
    challenges: createChallengeTallies(db),
    writes: accountWrites,
  };
};
