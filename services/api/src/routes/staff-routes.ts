import type { StaffId } from "@etd/events";
import { AddTeamMemberRequest, DeleteTeamMemberRequest, roleOf, UpdateTeamMemberRequest } from "@etd/contract/requests";
import { staffEndpoint, type Endpoint } from "../http/endpoint.ts";
import { fail, ok } from "../http/reply.ts";
import { STAFF_ACCOUNT_ANSWERS } from "../http/answers.ts";
import type { ApiDeps } from "../api-deps.ts";
import { addStaffAccount, deleteStaffAccount, isAccountChanged, updateStaffAccount } from "../commands/staff-accounts.ts";

/*
 * Manage Team (ADMIN-1). Each call is one account change: the staff event and the credentials
 * row in one transaction (commands/staff-accounts.ts); who may change whom is the staff
 * decider's rule.
 */

const isStaffId = (value: string) => /^[A-Za-z0-9_-]{1,64}$/.test(value);
const NOT_FOUND = "Team member not found.";

export const staffAccountEndpoints = (deps: ApiDeps): Endpoint[] => [
  staffEndpoint({
    method: "post",
    path: "/admin/add-team-member",
    guard: "staff.manage",
    summary: "Add a team member (ADMIN-1); only an Admin adds an Admin",
    body: AddTeamMemberRequest,
    answers: STAFF_ACCOUNT_ANSWERS,
    handle: async (context) => {
      const { input } = context;
      const added = await addStaffAccount(deps, context, {
        name: input.name.trim(),
        email: input.email.trim(),
        role: roleOf(input.type),
        password: input.password,
      });
      return isAccountChanged(added) ? ok("Team member added successfully.", { id: added.staffId, position: added.position ?? null }) : added;
    },
  }),
  staffEndpoint({
    method: "post",
    path: "/admin/update-team-member",
    guard: "staff.manage",
    summary: "Update a team member; an empty password keeps the current one (ADMIN-1); decided whole against the member as they were (ADR 0027): only an Admin edits an Admin or changes a Manager's role or password, no one their own role",
    body: UpdateTeamMemberRequest,
    answers: STAFF_ACCOUNT_ANSWERS,
    handle: async (context) => {
      const { input } = context;
      const staffId = input.tmId.trim();
      if (!isStaffId(staffId)) return fail(404, NOT_FOUND);
      const updated = await updateStaffAccount(deps, context, {
        staffId: staffId as StaffId,
        name: input.name.trim(),
        email: input.email.trim(),
        role: roleOf(input.type),
        password: input.password || undefined,
      });
      return isAccountChanged(updated) ? ok("Team member updated successfully.", { position: updated.position ?? null }) : updated;
    },
  }),
  staffEndpoint({
    method: "put",
    path: "/admin/delete-team-member",
    guard: "staff.manage",
    summary: "Delete a team member; their sessions end (ADMIN-1); only an Admin deletes an Admin, the last Admin stays",
    body: DeleteTeamMemberRequest,
    answers: STAFF_ACCOUNT_ANSWERS,
    handle: async (context) => {
      const staffId = String(context.input.teamMemberId).trim();
      if (!isStaffId(staffId)) return fail(404, NOT_FOUND);
      const deleted = await deleteStaffAccount(deps, context, staffId as StaffId);
      return isAccountChanged(deleted) ? ok("Team member deleted successfully.", { position: deleted.position ?? null }) : deleted;
    },
  }),
];
