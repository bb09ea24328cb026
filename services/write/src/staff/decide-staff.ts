import type { Role, StaffEvent, StaffId, WithoutMetadata } from "@etd/events";
import type { Decider, Decision } from "../shared/decider.ts";
import { type DecidedRefusal, isRefusal, refuse } from "../shared/refusal.ts";
import { isEmailAddress, trimmedText } from "../shared/validation.ts";
import type { StaffActor, StaffCommand } from "./commands.ts";
import { evolveStaff, initialStaffState, type StaffState } from "./staff-state.ts";

/*
 * Team member rules (ADMIN-1, AUTH-8). E-mail uniqueness spans streams, so the credentials
 * table enforces it, not this decider.
 */

export type NewStaffEvent = WithoutMetadata<StaffEvent>;
export type StaffDecision = Decision<NewStaffEvent>;

const notFound = () => refuse("not_found", "Team member not found.");

interface Profile {
  readonly staffId: StaffId;
  readonly name: string;
  readonly email: string;
  readonly role: Role;
}

/** The form's own messages (000 §5) for what would not fit the event's schema. */
const checkProfile = (command: Profile): Profile | DecidedRefusal => {
  const name = trimmedText(command.name);
  if (name === undefined) return refuse("invalid", "Please enter your name.");
  const email = command.email.trim();
  if (!isEmailAddress(email)) return refuse("invalid", "Please enter your email.");
  return { staffId: command.staffId, name, email, role: command.role };
};

const isAdmin = (actor: StaffActor) => "system" in actor || actor.role === "Admin";
const isSelf = (actor: StaffActor, staffId: StaffId) => !("system" in actor) && actor.id === staffId;

/*
 * Who may change whom (ADR 0027; DESIGN §3): only an Admin creates, edits, deletes or grants Admin;
 * only an Admin changes a Manager's role, sets another Manager's password (either would let one
 * Manager sign in, and act in the log, as a peer) or changes another Manager's name or e-mail (the
 * peer would have to sign in with an address someone else chose); no one changes their own role; the last Admin
 * can be neither deleted nor demoted. A Manager sets the password of Team, Telecaller and Night
 * Staff members on the edit form, which is what Manage Team is for (000 §5, ADMIN-1). Every rule
 * is judged against the member as they stood before the command. The permission matrix lets Admin
 * and Manager into Manage Team at all; these are the rules inside it.
 */
const ONLY_ADMIN = "Only an Admin can add, edit or delete an Admin, or make someone an Admin.";
const MANAGER_ROLE = "Only an Admin can change a Manager's role.";
const MANAGER_PASSWORD = "Only an Admin can set another Manager's password.";
const MANAGER_PROFILE = "Only an Admin can change another Manager's name or email.";
const OWN_PASSWORD = "Change Password sets only your own password.";
const NOT_YOURS = "Only the member themself can do this with their two-factor sign-in.";
const NOT_SET_UP = "This member has not set up two-factor sign-in.";
/** The most a capacity may be (the event's schema says the same). */
export const MAX_CAPACITY = 1000;

export const decideStaff = (command: StaffCommand, state: StaffState): StaffDecision => {
  if (command.type === "AddStaffMember") {
    if (state.exists) return refuse("conflict", "This team member already exists.");
    if (command.role === "Admin" && !isAdmin(command.actor)) return refuse("forbidden", ONLY_ADMIN);
    const profile = checkProfile(command);
    return isRefusal(profile) ? profile : [{ type: "StaffMemberAdded", data: profile }];
  }
  if (!state.exists || state.deleted) return notFound();
  // The member's own acts, and the Admin's reset, come before the rule on who may edit an Admin:
  // an Admin's password, sign-in and exports are theirs, and a reset has its own message.
  switch (command.type) {
    case "ChangePassword":
      // Change Password (AUTH-8) is the member's own; another's password is set on the edit form,
      // where UpdateStaffMember decides it with the rest of the save.
      if (!isSelf(command.actor, state.staffId)) return refuse("forbidden", OWN_PASSWORD);
      return [{ type: "PasswordChanged", data: { staffId: state.staffId } }];
    case "EnableTwoFactor":
      if (!isSelf(command.actor, state.staffId)) return refuse("forbidden", NOT_YOURS);
      if (state.twoFactor) return refuse("conflict", "Two-factor sign-in is already set up.");
      return [{ type: "TwoFactorEnabled", data: { staffId: state.staffId } }];
    case "ResetTwoFactor":
      if (!isAdmin(command.actor)) return refuse("forbidden", "Only an Admin can reset two-factor sign-in.");
      if (!state.twoFactor) return refuse("conflict", NOT_SET_UP);
      return [{ type: "TwoFactorReset", data: { staffId: state.staffId } }];
    case "UseRecoveryCode":
      if (!isSelf(command.actor, state.staffId)) return refuse("forbidden", NOT_YOURS);
      if (!state.twoFactor) return refuse("conflict", NOT_SET_UP);
      if (!Number.isInteger(command.remaining) || command.remaining < 0) return refuse("invalid", "The number of recovery codes left must be 0 or more.");
      return [{ type: "RecoveryCodeUsed", data: { staffId: state.staffId, remaining: command.remaining } }];
    case "RecordExport": {
      // The log must say who took the rows out: no one records an export in another's name.
      if (!isSelf(command.actor, state.staffId)) return refuse("forbidden", "An export is recorded in the name of the member who makes it.");
      if (!Number.isInteger(command.rows) || command.rows < 0) return refuse("invalid", "The number of exported rows must be 0 or more.");
      const { what, folderName, report, fromDate, toDate, rows } = command;
      return [{
        type: "DataExported",
        data: {
          staffId: state.staffId,
          what,
          ...(folderName === undefined ? {} : { folderName }),
          ...(report === undefined ? {} : { report }),
          ...(fromDate === undefined ? {} : { fromDate }),
          ...(toDate === undefined ? {} : { toDate }),
          rows,
        },
      }];
    }
    default:
      break;
  }
  if (state.role === "Admin" && !isAdmin(command.actor)) return refuse("forbidden", ONLY_ADMIN);

  switch (command.type) {
    case "UpdateStaffMember": {
      // One save, one decision: every check reads `state`, the member as they stood before it.
      const profile = checkProfile(command);
      if (isRefusal(profile)) return profile;
      const self = isSelf(command.actor, state.staffId);
      const roleChanged = profile.role !== state.role;
      if (roleChanged) {
        if (self) return refuse("forbidden", "You cannot change your own role.");
        if (profile.role === "Admin" && !isAdmin(command.actor)) return refuse("forbidden", ONLY_ADMIN);
        if (state.role === "Manager" && !isAdmin(command.actor)) return refuse("forbidden", MANAGER_ROLE);
        if (state.role === "Admin" && command.team.admins <= 1) return refuse("conflict", "The last Admin cannot be given another role.");
      }
      const changesPassword = command.changesPassword === true;
      if (changesPassword && !self && state.role === "Manager" && !isAdmin(command.actor)) return refuse("forbidden", MANAGER_PASSWORD);
      const profileChanged = profile.name !== state.name || profile.email !== state.email;
      if (profileChanged && !self && state.role === "Manager" && !isAdmin(command.actor)) return refuse("forbidden", MANAGER_PROFILE);
      const unchanged = !profileChanged && !roleChanged;
      // Saving the form without edits is fine and leaves no trace in the log.
      return [
        ...(unchanged ? [] : [{ type: "StaffMemberUpdated" as const, data: profile }]),
        ...(changesPassword ? [{ type: "PasswordChanged" as const, data: { staffId: state.staffId } }] : []),
      ];
    }
    case "SetCapacity": {
      // A limit on Take next is set by the member's overseer: never by themselves, and a Manager's only by an Admin (ADR 0027's rule for peers).
      if (isSelf(command.actor, state.staffId)) return refuse("forbidden", "You cannot set your own capacity.");
      if (state.role === "Manager" && !isAdmin(command.actor)) return refuse("forbidden", "Only an Admin can set a Manager's capacity.");
      const { capacity } = command;
      if (capacity !== undefined && !(Number.isInteger(capacity) && capacity >= 1 && capacity <= MAX_CAPACITY)) {
        return refuse("invalid", `A capacity is a whole number from 1 to ${MAX_CAPACITY}, or empty for no limit.`);
      }
      if (capacity === state.capacity) return [];
      return [{ type: "StaffCapacitySet", data: { staffId: state.staffId, ...(capacity === undefined ? {} : { capacity }) } }];
    }
    case "DeleteStaffMember":
      // Signing oneself out for good by mistake is the one deletion the screen must not allow.
      if (isSelf(command.actor, state.staffId)) {
        return refuse("forbidden", "You cannot delete your own account.");
      }
      if (state.role === "Admin" && command.team.admins <= 1) return refuse("conflict", "The last Admin cannot be deleted.");
      return [{ type: "StaffMemberDeleted", data: { staffId: state.staffId } }];
  }
};

export const staffDecider: Decider<StaffCommand, StaffState, StaffEvent> = {
  initialState: initialStaffState,
  evolve: evolveStaff,
  decide: decideStaff,
};
