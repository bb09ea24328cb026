import { Result, Schema } from "effect";
import type { Role, StaffId } from "@etd/events";
import { BLANK_PASSWORD, MAX_PASSWORD_LENGTH } from "../auth/passwords.ts";
import { ROLES } from "../auth/permissions.ts";
import type { Endpoint } from "../http/endpoint.ts";
import { requiredEmail, requiredText } from "../http/fields.ts";
import { decodeInput, fail, ok } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { addStaffAccount, deleteStaffAccount, isAccountChanged, updateStaffAccount } from "../commands/staff-accounts.ts";

/*
 * Manage Team (ADMIN-1). Each call is one account change: the staff event and the credentials
 * row in one transaction (commands/staff-accounts.ts); who may change whom is the staff
 * decider's rule.
 */

const TypeField = Schema.String.check(
  Schema.makeFilter((s: string) => (ROLES as readonly string[]).includes(s) || "Please select type."),
).pipe(Schema.annotateKey({ messageMissingKey: "Please select type." }));

const NAME = requiredText("Please enter your name.", 200);
const EMAIL = requiredEmail("Please enter your email.", "Please enter a valid email.");
const PASSWORD_RULES = [
  Schema.makeFilter((s: string) => s.length > 0 || "Please enter your password."),
  // Sign-in refuses a blank password as missing, so one could be set but never used.
  Schema.makeFilter((s: string) => s.length === 0 || s.trim().length > 0 || BLANK_PASSWORD),
  Schema.makeFilter((s: string) => s.length === 0 || s.length >= 6 || "Password must be at least 6 characters."),
  Schema.isMaxLength(MAX_PASSWORD_LENGTH, { message: `Password must be at most ${MAX_PASSWORD_LENGTH} characters.` }),
] as const;

export const AddTeamMemberRequest = Schema.Struct({
  name: NAME,
  email: EMAIL,
  password: Schema.String.check(...PASSWORD_RULES).pipe(Schema.annotateKey({ messageMissingKey: "Please enter your password." })),
  type: TypeField,
});

/** The edit form may leave the password empty: the member keeps the one they have. */
export const UpdateTeamMemberRequest = Schema.Struct({
  tmId: requiredText("Please choose a team member.", 64),
  name: NAME,
  email: EMAIL,
  password: Schema.optionalKey(Schema.String.check(PASSWORD_RULES[1], PASSWORD_RULES[2], PASSWORD_RULES[3])),
  type: TypeField,
});

export const DeleteTeamMemberRequest = Schema.Struct({
  teamMemberId: Schema.Union([Schema.String, Schema.Int]).pipe(
    Schema.annotateKey({ messageMissingKey: "Please choose a team member." }),
  ),
});

const isStaffId = (value: string) => /^[A-Za-z0-9_-]{1,64}$/.test(value);
const NOT_FOUND = "Team member not found.";

export const teamEndpoints = (deps: ApiDeps): Endpoint[] => [
  {
    method: "post",
    path: "/admin/add-team-member",
    guard: "team.manage",
    summary: "Add a team member (ADMIN-1); only an Admin adds an Admin",
    body: AddTeamMemberRequest,
    handle: async (context) => {
      const input = decodeInput(AddTeamMemberRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const added = await addStaffAccount(deps, context, {
        name: input.success.name.trim(),
        email: input.success.email.trim(),
        role: input.success.type as Role,
        password: input.success.password,
      });
      return isAccountChanged(added) ? ok("Team member added successfully.", { id: added.staffId, position: added.position ?? null }) : added;
    },
  },
  {
    method: "post",
    path: "/admin/update-team-member",
    guard: "team.manage",
    summary: "Update a team member; an empty password keeps the current one (ADMIN-1); only an Admin edits an Admin, no one their own role",
    body: UpdateTeamMemberRequest,
    handle: async (context) => {
      const input = decodeInput(UpdateTeamMemberRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const staffId = input.success.tmId.trim();
      if (!isStaffId(staffId)) return fail(404, NOT_FOUND);
      const updated = await updateStaffAccount(deps, context, {
        staffId: staffId as StaffId,
        name: input.success.name.trim(),
        email: input.success.email.trim(),
        role: input.success.type as Role,
        password: input.success.password || undefined,
      });
      return isAccountChanged(updated) ? ok("Team member updated successfully.", { position: updated.position ?? null }) : updated;
    },
  },
  {
    method: "put",
    path: "/admin/delete-team-member",
    guard: "team.manage",
    summary: "Delete a team member; their sessions end (ADMIN-1); only an Admin deletes an Admin, the last Admin stays",
    body: DeleteTeamMemberRequest,
    handle: async (context) => {
      const input = decodeInput(DeleteTeamMemberRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const staffId = String(input.success.teamMemberId).trim();
      if (!isStaffId(staffId)) return fail(404, NOT_FOUND);
      const deleted = await deleteStaffAccount(deps, context, staffId as StaffId);
      return isAccountChanged(deleted) ? ok("Team member deleted successfully.", { position: deleted.position ?? null }) : deleted;
    },
  },
];
