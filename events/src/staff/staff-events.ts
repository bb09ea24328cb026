import * as Schema from "effect/Schema";
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

/**
 * An Admin or Manager set how many open assigned orders the member may hold at most (issue 27):
 * Take next refuses at that number. Absent `capacity`: no limit.
 */
export const StaffCapacitySet = defineEvent(
  "StaffCapacitySet",
  1,
  Schema.Struct({ staffId: StaffId, capacity: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 }))) }),
);
export type StaffCapacitySet = typeof StaffCapacitySet.schema.Type;

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

/*
 * Two-factor sign-in (AUTH-3, issue 16). The secret and the recovery codes live encrypted or
 * hashed in the credentials table only: like passwords, they never enter an event, which is kept
 * for good and copied to the audit. The log says only that the factor was set up, reset or used.
 */

/** The member confirmed enrolment with a valid code (actor = the member). */
export const TwoFactorEnabled = defineEvent("TwoFactorEnabled", 1, Schema.Struct({ staffId: StaffId }));
export type TwoFactorEnabled = typeof TwoFactorEnabled.schema.Type;

/** An Admin removed the member's second factor (actor = the Admin). The member's sessions end. */
export const TwoFactorReset = defineEvent("TwoFactorReset", 1, Schema.Struct({ staffId: StaffId }));
export type TwoFactorReset = typeof TwoFactorReset.schema.Type;

/** A recovery code signed the member in; `remaining` unused codes are left (actor = the member). */
export const RecoveryCodeUsed = defineEvent(
  "RecoveryCodeUsed",
  1,
  Schema.Struct({ staffId: StaffId, remaining: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)) }),
);
export type RecoveryCodeUsed = typeof RecoveryCodeUsed.schema.Type;

/** What an export held: a queue folder, a search within one, or a report's table. */
export const ExportKind = Schema.Literals(["queue", "search", "report"]);
export type ExportKind = typeof ExportKind.Type;

/**
 * A member downloaded orders as CSV (issue 16 D): a back office that holds passport data keeps
 * who took which rows out of it. Appended before the first byte is sent; `rows` is the count
 * that matched at that moment. A search's text is not kept: it is often a traveller's name or
 * address, and this stream cannot forget it when that order is erased (DESIGN §3).
 */
export const DataExported = defineEvent(
  "DataExported",
  1,
  Schema.Struct({
    staffId: StaffId,
    what: ExportKind,
    folderName: Schema.optionalKey(Schema.String),
    report: Schema.optionalKey(Schema.String),
    /** A report's days, as the screen asked for them. */
    fromDate: Schema.optionalKey(Schema.String),
    toDate: Schema.optionalKey(Schema.String),
    rows: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  }),
);
export type DataExported = typeof DataExported.schema.Type;

/** Every event type a staff stream may hold (the catalogue reads this list). */
export const STAFF_EVENTS = [
  StaffMemberAdded,
  StaffMemberUpdated,
  StaffMemberDeleted,
  StaffCapacitySet,
  PasswordChanged,
  TwoFactorEnabled,
  TwoFactorReset,
  RecoveryCodeUsed,
  DataExported,
] as const;
