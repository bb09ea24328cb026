import { TEAM_MEMBER_NOT_FOUND } from "@etd/contract";
import type { StaffId } from "@etd/events";
import { roleOf } from "@etd/contract/requests";
import type { Handlers } from "../http/endpoint.ts";
import { fail, ok } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { addStaffAccount, deleteStaffAccount, isAccountChanged, setStaffCapacity, updateStaffAccount } from "../commands/staff-accounts.ts";

/*
 * Manage Team (ADMIN-1). Each call is one account change: the staff event and the credentials
 * row in one transaction (commands/staff-accounts.ts); who may change whom is the staff
 * decider's rule.
 */

const isStaffId = (value: string) => /^[A-Za-z0-9_-]{1,64}$/.test(value);

export const staffAccountHandlers = (deps: ApiDeps) =>
  ({
    addTeamMember: async (context) => {
      const { input } = context;
      const added = await addStaffAccount(deps, context, {
        name: input.name.trim(),
        email: input.email.trim(),
        role: roleOf(input.type),
        password: input.password,
      });
      return isAccountChanged(added) ? ok("Team member added successfully.", { id: added.staffId, position: added.position ?? null }) : added;
    },
    updateTeamMember: async (context) => {
      const { input } = context;
      const staffId = input.tmId.trim();
      if (!isStaffId(staffId)) return fail(404, TEAM_MEMBER_NOT_FOUND);
      const updated = await updateStaffAccount(deps, context, {
        staffId: staffId as StaffId,
        name: input.name.trim(),
        email: input.email.trim(),
        role: roleOf(input.type),
        password: input.password || undefined,
      });
      return isAccountChanged(updated) ? ok("Team member updated successfully.", { position: updated.position ?? null }) : updated;
    },
    setTeamMemberCapacity: async (context) => {
      const staffId = context.input.tmId.trim();
      if (!isStaffId(staffId)) return fail(404, TEAM_MEMBER_NOT_FOUND);
      const set = await setStaffCapacity(deps, context, staffId as StaffId, context.input.capacity ?? undefined);
      return isAccountChanged(set) ? ok("Capacity saved successfully.", { position: set.position ?? null }) : set;
    },
    deleteTeamMember: async (context) => {
      const staffId = String(context.input.teamMemberId).trim();
      if (!isStaffId(staffId)) return fail(404, TEAM_MEMBER_NOT_FOUND);
      const deleted = await deleteStaffAccount(deps, context, staffId as StaffId);
      return isAccountChanged(deleted) ? ok("Team member deleted successfully.", { position: deleted.position ?? null }) : deleted;
    },
}) satisfies Partial<Handlers>;
