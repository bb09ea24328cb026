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
 * Who may change whom (the rule, DESIGN §3): only an Admin creates, edits, deletes or
 * grants Admin (a password reset of an Admin is a takeover, and so is one of a peer Manager);
 * no one changes their own role; the last Admin can be neither deleted nor demoted. The permission matrix lets Admin and Manager
 * into Manage Team at all; these are the rules inside it.
 */
const ONLY_ADMIN = "Only an Admin can add, edit or delete an Admin, or make someone an Admin.";

export const decideStaff = (command: StaffCommand, state: StaffState): StaffDecision => {
  if (command.type === "AddStaffMember") {
    if (state.exists) return refuse("conflict", "This team member already exists.");
    if (command.role === "Admin" && !isAdmin(command.actor)) return refuse("forbidden", ONLY_ADMIN);
    const profile = checkProfile(command);
    return isRefusal(profile) ? profile : [{ type: "StaffMemberAdded", data: profile }];
  }
  if (!state.exists || state.deleted) return notFound();
  if (state.role === "Admin" && !isAdmin(command.actor)) return refuse("forbidden", ONLY_ADMIN);

  switch (command.type) {
    case "UpdateStaffMember": {
      const profile = checkProfile(command);
      if (isRefusal(profile)) return profile;
      if (profile.role !== state.role) {
        if (isSelf(command.actor, state.staffId)) return refuse("forbidden", "You cannot change your own role.");
        if (profile.role === "Admin" && !isAdmin(command.actor)) return refuse("forbidden", ONLY_ADMIN);
        if (state.role === "Admin" && command.team.admins <= 1) return refuse("conflict", "The last Admin cannot be given another role.");
      }
      const unchanged =
        profile.name === state.name && profile.email === state.email && profile.role === state.role;
      // Saving the form without edits is fine and leaves no trace in the log.
      return unchanged ? [] : [{ type: "StaffMemberUpdated", data: profile }];
    }
    case "DeleteStaffMember":
      // Signing oneself out for good by mistake is the one deletion the screen must not allow.
      if (isSelf(command.actor, state.staffId)) {
        return refuse("forbidden", "You cannot delete your own account.");
      }
      if (state.role === "Admin" && command.team.admins <= 1) return refuse("conflict", "The last Admin cannot be deleted.");
      return [{ type: "StaffMemberDeleted", data: { staffId: state.staffId } }];
    case "ChangePassword":
      // Setting a peer Manager's password would let one Manager sign in, and act in the log, as another.
      if (state.role === "Manager" && !isSelf(command.actor, state.staffId) && !isAdmin(command.actor)) {
        return refuse("forbidden", "Only an Admin can set another Manager's password.");
      }
      return [{ type: "PasswordChanged", data: { staffId: state.staffId } }];
  }
};

export const staffDecider: Decider<StaffCommand, StaffState, StaffEvent> = {
  initialState: initialStaffState,
  evolve: evolveStaff,
  decide: decideStaff,
};
