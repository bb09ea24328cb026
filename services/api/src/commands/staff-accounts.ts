import { randomUUID } from "node:crypto";
import type { Query } from "@etd/event-store";
import { staffStream, type Role, type StaffId } from "@etd/events";
import { handleCommand, staffDecider, type ExportDetails, type StaffActor, type StaffCommand, type TeamFacts } from "@etd/write";
import { hashPassword } from "../auth/passwords.ts";
import { checkCode, newRecoveryCodes } from "../auth/two-factor.ts";
import { fail, type Reply } from "../http/reply.ts";
import { requestMetadata, type ApiDeps, type Caller } from "../api-deps.ts";
import { refusalReply } from "./run-command.ts";

/*
 * A staff account is two records: the credentials row (password hash, and the one-account-per-
 * e-mail rule, which spans every staff stream) and the staff stream (where the decider guards the
 * change and the audit lives). Both change in ONE database transaction, so neither exists without
 * the other: a refused or failed event leaves no account that can sign in, and no role the log
 * does not show. A lock serialises account changes, which makes the team-wide facts the decider
 * needs (how many Admins remain, who holds an e-mail) exact while it decides.
 */

export const EMAIL_TAKEN = "This email is already used by another team member.";

/** Any constant shared by every process; takes part in no other lock. */
const ACCOUNTS_LOCK = 7_340_010;

export type AccountOutcome = { readonly ok: true; readonly staffId: StaffId; readonly position: string | undefined } | Reply<never>;

interface AccountTransaction {
  readonly query: Query;
  readonly team: TeamFacts;
  /** Who acts, with the role they hold now. */
  readonly actor: StaffActor;
  /** Decides and appends on the staff stream; undefined when recorded, else the refusal's reply. */
  run(command: StaffCommand): Promise<Reply<never> | undefined>;
  /** The last position appended in this transaction. */
  position(): string | undefined;
}

const UNAUTHORIZED_NOW = "Your session has expired or is not valid. Please sign in again.";

/**
 * The actor as the credentials say under the lock, not as the request's sign-in saw them: an Admin
 * demoted or deleted while their request waited acts with what they hold now. The system (first
 * admin, demo data) acts as itself.
 */
const currentActor = async (deps: ApiDeps, query: Query, caller: Caller, system: string | undefined): Promise<StaffActor | undefined> => {
  if (system !== undefined || !caller.user) return { system: system ?? "system" };
  const role = await deps.credentials.writes.liveRole(query, caller.user.id);
  return role ? { id: caller.user.id, name: caller.user.name, role } : undefined;
};

const inAccountTransaction = <T>(
  deps: ApiDeps,
  caller: Caller,
  system: string | undefined,
  work: (tx: AccountTransaction) => Promise<T | Reply<never>>,
): Promise<T | Reply<never>> =>
  deps.store.transaction(async (store, query) => {
    await query(`select pg_advisory_xact_lock(${ACCOUNTS_LOCK})`);
    const actor = await currentActor(deps, query, caller, system);
    if (!actor) return fail(401, UNAUTHORIZED_NOW);
    const team = { admins: await deps.credentials.writes.countAdmins(query) };
    let position: string | undefined;
    return work({
      query,
      team,
      actor,
      position: () => position,
      run: async (command) => {
        const outcome = await handleCommand(staffDecider, command, {
          store,
          streamId: staffStream(command.staffId),
          // The metadata names the role the actor holds now, as the decider judged it.
          metadata: requestMetadata("system" in actor ? caller : { ...caller, user: { id: actor.id, name: actor.name, type: actor.role } }, system),
          now: deps.now,
        });
        if (!outcome.ok) return refusalReply(outcome.refusal);
        if (outcome.events.length > 0) position = outcome.position;
        return undefined;
      },
    });
  });

const takenByAnother = async (deps: ApiDeps, query: Query, email: string, staffId: StaffId) => {
  const owner = await deps.credentials.writes.emailOwner(query, email);
  return owner !== undefined && owner !== staffId;
};

export interface NewAccount {
  readonly name: string;
  readonly email: string;
  readonly role: Role;
  readonly password: string;
}

/** Adds a member; `system` names the actor when no one is signed in (first admin, demo data). */
export const addStaffAccount = async (deps: ApiDeps, caller: Caller, account: NewAccount, system?: string): Promise<AccountOutcome> => {
  const staffId = randomUUID() as StaffId;
  const passwordHash = await hashPassword(account.password);
  const profile = { name: account.name, email: account.email, role: account.role };
  return inAccountTransaction(deps, caller, system, async (tx) => {
    if (await takenByAnother(deps, tx.query, account.email, staffId)) return fail(409, EMAIL_TAKEN);
    const refused = await tx.run({ type: "AddStaffMember", staffId, ...profile, actor: tx.actor });
    if (refused) return refused;
    await deps.credentials.writes.add(tx.query, { staffId, ...profile, passwordHash });
    return { ok: true, staffId, position: tx.position() };
  });
};

export interface AccountUpdate {
  readonly staffId: StaffId;
  readonly name: string;
  readonly email: string;
  readonly role: Role;
  /** A new password, or undefined to keep the current one. */
  readonly password: string | undefined;
}

/**
 * The edit form: profile, role and optionally a new password, all or nothing. One command, so the
 * decider judges the whole save against the member as they stood before it (ADR 0027); a refusal
 * writes nothing, so no row changes and no session ends.
 */
export const updateStaffAccount = async (deps: ApiDeps, caller: Caller, update: AccountUpdate): Promise<AccountOutcome> => {
  const passwordHash = update.password ? await hashPassword(update.password) : undefined;
  const profile = { name: update.name, email: update.email, role: update.role };
  return inAccountTransaction(deps, caller, undefined, async (tx) => {
    if (await takenByAnother(deps, tx.query, update.email, update.staffId)) return fail(409, EMAIL_TAKEN);
    const refused = await tx.run({
      type: "UpdateStaffMember",
      staffId: update.staffId,
      ...profile,
      changesPassword: passwordHash !== undefined,
      actor: tx.actor,
      team: tx.team,
    });
    if (refused) return refused;
    await deps.credentials.writes.updateProfile(tx.query, update.staffId, profile);
    if (passwordHash) await deps.credentials.writes.setPassword(tx.query, update.staffId, passwordHash);
    return { ok: true, staffId: update.staffId, position: tx.position() };
  });
};

/** Deletes a member: they can no longer sign in and their sessions end. */
export const deleteStaffAccount = (deps: ApiDeps, caller: Caller, staffId: StaffId): Promise<AccountOutcome> =>
  inAccountTransaction(deps, caller, undefined, async (tx) => {
    const refused = await tx.run({ type: "DeleteStaffMember", staffId, actor: tx.actor, team: tx.team });
    if (refused) return refused;
    await deps.credentials.writes.remove(tx.query, staffId);
    return { ok: true, staffId, position: tx.position() };
  });

/** Change Password (AUTH-8): the signed-in member's own; every session of theirs ends. */
export const changeOwnPassword = async (deps: ApiDeps, caller: Caller & { user: { id: StaffId } }, password: string): Promise<AccountOutcome> => {
  const passwordHash = await hashPassword(password);
  const staffId = caller.user.id;
  return inAccountTransaction(deps, caller, undefined, async (tx) => {
    const refused = await tx.run({ type: "ChangePassword", staffId, actor: tx.actor });
    if (refused) return refused;
    await deps.credentials.writes.setPassword(tx.query, staffId, passwordHash);
    return { ok: true, staffId, position: tx.position() };
  });
};

/*
 * Two-factor sign-in (AUTH-3, issue 16, ADR 0024). The credentials row keeps the secret (sealed),
 * the last accepted step and the recovery codes' hashes; the staff stream says only that the
 * factor was turned on, reset or a recovery code used. Each change runs the decider before it
 * writes a column, in the account transaction, so a refusal leaves the row as it was.
 */

export const ALREADY_SET_UP = "Two-factor sign-in is already set up.";
export const CODE_NOT_VALID = "That code is not valid. Please try again.";
export const RECOVERY_CODE_NOT_VALID = "That recovery code is not valid.";

type SignedIn = Caller & { user: { id: StaffId } };

export type TwoFactorEnabledOutcome =
  | { readonly ok: true; readonly recoveryCodes: readonly string[]; readonly sessionGeneration: number; readonly position: string | undefined }
  | Reply<never>;

/**
 * Enrolment: the code proves the member's app holds the pending secret, which becomes theirs, with
 * ten new recovery codes (answered here, the only time they are shown) and the code's step as the
 * last one used, so the code that enrolled cannot sign in as well.
 */
export const enableTwoFactor = (deps: ApiDeps, caller: SignedIn, code: string): Promise<TwoFactorEnabledOutcome> => {
  const staffId = caller.user.id;
  return inAccountTransaction(deps, caller, undefined, async (tx) => {
    const stored = await deps.credentials.writes.twoFactorOf(tx.query, staffId);
    if (!stored) return fail(401, UNAUTHORIZED_NOW);
    if (stored.secret !== null) return fail(409, ALREADY_SET_UP);
    const pending = stored.pending === null ? undefined : deps.twoFactor.box.open(stored.pending);
    if (pending === undefined) return fail(400, "Please start the setup again: scan the new QR code, then enter its code.");
    const checked = checkCode(pending, code, null, deps.now().getTime());
    if (checked.kind !== "accepted") return fail(400, CODE_NOT_VALID);
    const refused = await tx.run({ type: "EnableTwoFactor", staffId, actor: tx.actor });
    if (refused) return refused;
    const recoveryCodes = newRecoveryCodes();
    const sessionGeneration = await deps.credentials.writes.enableTwoFactor(tx.query, staffId, {
      sealedSecret: stored.pending!,
      step: checked.step,
      recoveryHashes: recoveryCodes.map((code) => deps.twoFactor.box.recoveryCodeHash(code)),
    });
    return { ok: true, recoveryCodes, sessionGeneration, position: tx.position() };
  });
};

/** An Admin removes a member's second factor (a lost phone): every session of the member ends. */
export const resetTwoFactor = (deps: ApiDeps, caller: Caller, staffId: StaffId): Promise<AccountOutcome> =>
  inAccountTransaction(deps, caller, undefined, async (tx) => {
    const refused = await tx.run({ type: "ResetTwoFactor", staffId, actor: tx.actor });
    if (refused) return refused;
    await deps.credentials.writes.resetTwoFactor(tx.query, staffId);
    return { ok: true, staffId, position: tx.position() };
  });

/**
 * Spends the sign-in's challenge in the transaction that accepts its code, after the check and
 * before any write: false when another request spent it first (and then nothing is written).
 */
export type ClaimChallenge = (query: Query) => Promise<boolean>;

/** The challenge was spent by another request with a right code at the same time. */
export const CHALLENGE_SPENT = "spent";

/**
 * The second step of a sign-in with a recovery code: the code is removed as it is used, and the
 * log says how many are left (RecoveryCodeUsed, actor the member). A lost race for the challenge
 * answers `CHALLENGE_SPENT` and keeps the code.
 */
export const useRecoveryCode = (deps: ApiDeps, caller: SignedIn, recoveryCode: string, claim: ClaimChallenge): Promise<AccountOutcome | typeof CHALLENGE_SPENT> => {
  const staffId = caller.user.id;
  const hash = deps.twoFactor.box.recoveryCodeHash(recoveryCode);
  return inAccountTransaction<Extract<AccountOutcome, { ok: true }> | typeof CHALLENGE_SPENT>(deps, caller, undefined, async (tx) => {
    const stored = await deps.credentials.writes.twoFactorOf(tx.query, staffId);
    if (!stored || stored.secret === null || !stored.recoveryCodes.includes(hash)) return fail(401, RECOVERY_CODE_NOT_VALID);
    if (!(await claim(tx.query))) return CHALLENGE_SPENT;
    const refused = await tx.run({ type: "UseRecoveryCode", staffId, remaining: stored.recoveryCodes.length - 1, actor: tx.actor });
    if (refused) return refused;
    await deps.credentials.writes.useRecoveryCode(tx.query, staffId, hash);
    return { ok: true, staffId, position: tx.position() };
  });
};

/**
 * The second step of a sign-in with the authenticator's code. No event: a sign-in is not an
 * account change. The row is locked while the code is checked, the challenge spent and the step
 * recorded, and the step is written only if later than the last one, so of two requests with one
 * code one passes; of two with right codes on one challenge, the one that spends it.
 */
export const useTotpCode = (deps: ApiDeps, staffId: StaffId, code: string, claim: ClaimChallenge): Promise<"accepted" | "reused" | "invalid" | typeof CHALLENGE_SPENT> =>
  deps.store.transaction(async (_store, query) => {
    const stored = await deps.credentials.writes.twoFactorOf(query, staffId);
    const secret = stored?.secret ? deps.twoFactor.box.open(stored.secret) : undefined;
    if (!stored || secret === undefined) return "invalid";
    const checked = checkCode(secret, code, stored.lastStep, deps.now().getTime());
    if (checked.kind !== "accepted") return checked.kind;
    // Under the row lock the step is later than the last one, so the write below cannot fail
    // after the challenge is spent.
    if (!(await claim(query))) return CHALLENGE_SPENT;
    return (await deps.credentials.writes.acceptStep(query, staffId, checked.step)) ? "accepted" : "reused";
  });

/** Setup: a new secret to scan replaces any earlier one not yet confirmed; an enrolled one stays. */
export const storePendingSecret = (deps: ApiDeps, staffId: StaffId, secret: string): Promise<void> =>
  deps.store.transaction(async (_store, query) => {
    await deps.credentials.writes.setPendingSecret(query, staffId, deps.twoFactor.box.seal(secret));
  });

/**
 * Records a CSV export (issue 16 D) on the signed-in member's own stream, before the first byte
 * is sent: the caller sends nothing unless this answers `ok`. It takes the account lock like every
 * staff change, so an export by a member deleted meanwhile is refused (not_found), never recorded
 * after the fact.
 */
export const recordExport = (deps: ApiDeps, caller: SignedIn, details: ExportDetails): Promise<AccountOutcome> => {
  const staffId = caller.user.id;
  return inAccountTransaction(deps, caller, undefined, async (tx) => {
    const refused = await tx.run({ type: "RecordExport", staffId, ...details, actor: tx.actor });
    if (refused) return refused;
    return { ok: true, staffId, position: tx.position() };
  });
};

export const isAccountChanged = (outcome: AccountOutcome): outcome is Extract<AccountOutcome, { ok: true }> => "ok" in outcome;

/**
 * Manage Team's capacity field (issue 27): only the staff stream changes (no credentials row), but
 * under the same lock and with the actor's live role, like every other change to a member.
 */
export const setStaffCapacity = (deps: ApiDeps, caller: Caller, staffId: StaffId, capacity: number | undefined): Promise<AccountOutcome> =>
  inAccountTransaction(deps, caller, undefined, async (tx) => {
    const refused = await tx.run({ type: "SetCapacity", staffId, capacity, actor: tx.actor });
    if (refused) return refused;
    return { ok: true, staffId, position: tx.position() };
  });
