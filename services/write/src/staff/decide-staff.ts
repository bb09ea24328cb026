import type { Role, StaffEvent, StaffId, WithoutMetadata } from "@etd/events";
import type { Decider, Decision } from "../shared/decider.ts";
import { isRefusal, type Refusal, refuse } from "../shared/refusal.ts";
import { isEmailAddress, trimmedText } from "../shared/validation.ts";
import type { StaffCommand } from "./commands.ts";
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
const checkProfile = (command: Profile): Profile | Refusal => {
  const name = trimmedText(command.name);
  if (name === undefined) return refuse("invalid", "Please enter your name.");
  const email = command.email.trim();
  if (!isEmailAddress(email)) return refuse("invalid", "Please enter your email.");
  return { staffId: command.staffId, name, email, role: command.role };
};

export const decideStaff = (command: StaffCommand, state: StaffState): StaffDecision => {
  if (command.type === "AddStaffMember") {
    if (state.exists) return refuse("conflict", "This team member already exists.");
    const profile = checkProfile(command);
    return isRefusal(profile) ? profile : [{ type: "StaffMemberAdded", data: profile }];
  }
  if (!state.exists || state.deleted) return notFound();

  switch (command.type) {
    case "UpdateStaffMember": {
      const profile = checkProfile(command);
      if (isRefusal(profile)) return profile;
      const unchanged =
        profile.name === state.name && profile.email === state.email && profile.role === state.role;
      // Saving the form without edits is fine and leaves no trace in the log.
      return unchanged ? [] : [{ type: "StaffMemberUpdated", data: profile }];
    }
    case "DeleteStaffMember":
      // Signing oneself out for good by mistake is the one deletion the screen must not allow.
      if (command.actor.id === state.staffId) {
        return refuse("forbidden", "You cannot delete your own account.");
      }
      return [{ type: "StaffMemberDeleted", data: { staffId: state.staffId } }];
    case "ChangePassword":
      return [{ type: "PasswordChanged", data: { staffId: state.staffId } }];
  }
};

export const staffDecider: Decider<StaffCommand, StaffState, StaffEvent> = {
  initialState: initialStaffState,
  evolve: evolveStaff,
  decide: decideStaff,
};
