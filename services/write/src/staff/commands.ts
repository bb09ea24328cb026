import type { Role, StaffId } from "@etd/events";
import type { ActingStaff } from "../shared/acting-staff.ts";

/*
 * Commands on one staff member's stream, `staff-{id}` (Manage Team, ADMIN-1; Change Password,
 * AUTH-8). Passwords never reach the decider: the account handler stores the hash in the
 * credentials table in the same transaction as the event, and keeps e-mail addresses unique.
 * Only whether a password is set does, as part of the command it belongs to (ADR 0027).
 */

/** Who asks: a signed-in member, or the system itself (the first admin, demo data), which may do anything. */
export type StaffActor = ActingStaff | { readonly system: string };

/**
 * What the decider must know of the whole team, read under the lock that serialises account
 * changes: "the last Admin stays" spans every staff stream.
 */
export interface TeamFacts {
  /** Live (not deleted) members with the Admin role, the target included. */
  readonly admins: number;
}

export interface AddStaffMember {
  readonly type: "AddStaffMember";
  readonly staffId: StaffId;
  readonly name: string;
  readonly email: string;
  readonly role: Role;
  readonly actor: StaffActor;
}

/**
 * One save of the edit form: the profile fields as they should now be and, when the form's
 * password field was filled, a new password. Decided whole, against the member as they stood
 * before the save (ADR 0027): a role change cannot open the way for the password in the same save.
 */
export interface UpdateStaffMember {
  readonly type: "UpdateStaffMember";
  readonly staffId: StaffId;
  readonly name: string;
  readonly email: string;
  readonly role: Role;
  /** The save sets a new password (its hash goes to the credentials table, never here). */
  readonly changesPassword?: boolean;
  readonly actor: StaffActor;
  readonly team: TeamFacts;
}

/** Manage Team sets the most open assigned orders the member may hold (issue 27); undefined: no limit. */
export interface SetCapacity {
  readonly type: "SetCapacity";
  readonly staffId: StaffId;
  readonly capacity: number | undefined;
  readonly actor: StaffActor;
}

export interface DeleteStaffMember {
  readonly type: "DeleteStaffMember";
  readonly staffId: StaffId;
  readonly actor: StaffActor;
  readonly team: TeamFacts;
}

/** Change Password (AUTH-8): the member sets their own new password; the hash stays out of events. Another's is set on the edit form. */
export interface ChangePassword {
  readonly type: "ChangePassword";
  readonly staffId: StaffId;
  readonly actor: StaffActor;
}

/** The member confirmed their authenticator with a valid code (AUTH-3); the secret stays out of the command. */
export interface EnableTwoFactor {
  readonly type: "EnableTwoFactor";
  readonly staffId: StaffId;
  readonly actor: StaffActor;
}

/** An Admin removes a member's second factor, e.g. after a lost phone. */
export interface ResetTwoFactor {
  readonly type: "ResetTwoFactor";
  readonly staffId: StaffId;
  readonly actor: StaffActor;
}

/** A recovery code signed the member in; `remaining` unused codes are left. */
export interface UseRecoveryCode {
  readonly type: "UseRecoveryCode";
  readonly staffId: StaffId;
  readonly remaining: number;
  readonly actor: StaffActor;
}

/** What a CSV export held (issue 16 D), recorded before its first byte is sent. */
export interface ExportDetails {
  readonly what: "queue" | "search" | "report";
  readonly folderName?: string;
  readonly report?: string;
  readonly fromDate?: string;
  readonly toDate?: string;
  readonly rows: number;
}

export interface RecordExport extends ExportDetails {
  readonly type: "RecordExport";
  readonly staffId: StaffId;
  readonly actor: StaffActor;
}

export type StaffCommand =
  | AddStaffMember
  | UpdateStaffMember
  | SetCapacity
  | DeleteStaffMember
  | ChangePassword
  | EnableTwoFactor
  | ResetTwoFactor
  | UseRecoveryCode
  | RecordExport;
