import { ROLES, TEAM_MEMBER_NOT_FOUND } from "@etd/contract";
import { staffMember, staffMembers } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import type { Handlers } from "../http/endpoint.ts";
import { fail, ok } from "../http/reply.ts";

/*
 * Manage Team's reads (ADMIN-1), from the staff projection. The list's Password column gets a
 * fixed mask and the edit form an empty password (an empty password on update keeps the current
 * one); no password or hash exists on the read side.
 */


const isStaffId = (value: unknown): value is string => typeof value === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(value);

export const staffQueryHandlers = (deps: ApiDeps) =>
  ({
    getTeamMemberList: async () => ok("Team members loaded.", await staffMembers(deps.readDb.query)),
    getTeamMemberInfo: async ({ params }) => {
      const { id } = params;
      const member = isStaffId(id) ? await staffMember(deps.readDb.query, id) : undefined;
      return member ? ok("Team member loaded.", member) : fail(404, TEAM_MEMBER_NOT_FOUND);
    },
    getTeamMemberTypes: async () => ok("Team member types loaded.", ROLES),
  }) satisfies Partial<Handlers>;
