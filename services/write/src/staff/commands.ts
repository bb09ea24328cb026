import type { Role, StaffId } from "@etd/events";
import type { ActingStaff } from "../shared/acting-staff.ts";

/*
 * Commands on one staff member's stream, `staff-{id}` (Manage Team, ADMIN-1; Change Password,
 * AUTH-8). Passwords never reach the decider: the handler stores the hash in the credentials
 * table, which also keeps e-mail addresses unique across members.
 */

export interface AddStaffMember {
  readonly type: "AddStaffMember";
  readonly staffId: StaffId;
  readonly name: string;
  readonly email: string;
  readonly role: Role;
}

/** The edit form's profile fields as they should now be. */
export interface UpdateStaffMember {
  readonly type: "UpdateStaffMember";
  readonly staffId: StaffId;
  readonly name: string;
  readonly email: string;
  readonly role: Role;
}

export interface DeleteStaffMember {
  readonly type: "DeleteStaffMember";
  readonly staffId: StaffId;
  readonly actor: ActingStaff;
}

/** A new password was set, by its owner or on the edit form; the hash stays out of events. */
export interface ChangePassword {
  readonly type: "ChangePassword";
  readonly staffId: StaffId;
}

export type StaffCommand = AddStaffMember | UpdateStaffMember | DeleteStaffMember | ChangePassword;

export type StaffCommandType = StaffCommand["type"];
