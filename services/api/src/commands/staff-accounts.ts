import { randomUUID } from "node:crypto";
import type { Role, StaffId } from "@etd/events";
import type { StaffCommand } from "@etd/write";
import { hashPassword } from "../auth/passwords.ts";
import { fail, type Reply } from "../http/reply.ts";
import type { ApiDeps, Caller } from "../api-deps.ts";
import { refusalReply, runStaffCommandRaw } from "./run-command.ts";

/*
 * A staff account is two records that change together: the credentials row (where "one account
 * per e-mail" is enforced, since that rule spans every staff stream) and the staff stream (where
 * the decider guards the change and the audit lives).
 */

export const EMAIL_TAKEN = "This email is already used by another team member.";

/** Runs a staff command; answers the refusal's reply, or undefined when it was recorded. */
export const runStaffCommand = async (
  deps: ApiDeps,
  caller: Caller,
  command: StaffCommand,
  system?: string,
): Promise<Reply | undefined> => {
  const ran = await runStaffCommandRaw(deps, caller, command, system);
  return ran.ok ? undefined : refusalReply(ran.refusal);
};

export interface NewAccount {
  readonly name: string;
  readonly email: string;
  readonly role: Role;
  readonly password: string;
}

/** Adds the account: the e-mail is claimed first, and given back if the stream refuses. */
export const addStaffAccount = async (
  deps: ApiDeps,
  caller: Caller,
  account: NewAccount,
  system?: string,
): Promise<{ staffId: StaffId; position: string | undefined } | Reply> => {
  const staffId = randomUUID() as StaffId;
  const profile = { name: account.name, email: account.email, role: account.role };
  const added = await deps.credentials.add({ staffId, ...profile, passwordHash: await hashPassword(account.password) });
  if (added === "email_taken") return fail(409, EMAIL_TAKEN);
  const ran = await runStaffCommandRaw(deps, caller, { type: "AddStaffMember", staffId, ...profile }, system);
  if (!ran.ok) {
    await deps.credentials.remove(staffId);
    return refusalReply(ran.refusal);
  }
  return { staffId, position: ran.position };
};
