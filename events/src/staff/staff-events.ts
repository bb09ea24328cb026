import { Schema } from "effect";
import { defineEvent } from "../shared/event-definition.ts";
import { StaffId } from "../shared/ids.ts";
import { EmailAddress, NonEmptyText } from "../shared/primitives.ts";
import { Role } from "../shared/role.ts";

/*
 * Events of one staff member's stream, `staff-{id}`. Passwords and their hashes never enter an
 * event (DESIGN §3): the write side keeps credentials in their own table, and the log only says
 * that a password changed, and who changed it (metadata.actor).
 */

const StaffProfile = {
  staffId: StaffId,
  name: NonEmptyText,
  email: EmailAddress,
  role: Role,
};

/** An Admin or Manager added a team member (Manage Team). */
export const StaffMemberAdded = defineEvent("StaffMemberAdded", 1, Schema.Struct(StaffProfile));
export type StaffMemberAdded = typeof StaffMemberAdded.schema.Type;

/** An Admin or Manager saved the edit form; the event holds the profile as it now is. */
export const StaffMemberUpdated = defineEvent("StaffMemberUpdated", 1, Schema.Struct(StaffProfile));
export type StaffMemberUpdated = typeof StaffMemberUpdated.schema.Type;

/** A team member was removed; they can no longer sign in. */
export const StaffMemberDeleted = defineEvent(
  "StaffMemberDeleted",
  1,
  Schema.Struct({ staffId: StaffId }),
);
export type StaffMemberDeleted = typeof StaffMemberDeleted.schema.Type;

/**
 * A password was set: by its owner (Change Password) or by an Admin or Manager on the edit
 * form. Existing sessions of that member end.
 */
export const PasswordChanged = defineEvent(
  "PasswordChanged",
  1,
  Schema.Struct({ staffId: StaffId }),
);
export type PasswordChanged = typeof PasswordChanged.schema.Type;
