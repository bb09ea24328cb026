import { ROLES, TEAM_MEMBER_NOT_FOUND } from "@etd/contract";
import { openOrdersByMember, openOrdersOf, staffMember, staffMembers } from "@etd/projections";
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
    // Each member with their open orders (issue 27), which the queue read model counts.
    getTeamMemberList: async () => {
      const [members, open] = await Promise.all([staffMembers(deps.readDb.query), openOrdersByMember(deps.readDb.query)]);
      return ok("Team members loaded.", members.map((member) => ({ ...member, openOrders: open.get(member.id) ?? 0 })));
    },
    getTeamMemberInfo: async ({ params }) => {
      const { id } = params;
      const member = isStaffId(id) ? await staffMember(deps.readDb.query, id) : undefined;
      return member ? ok("Team member loaded.", { ...member, openOrders: await openOrdersOf(deps.readDb.query, id) }) : fail(404, TEAM_MEMBER_NOT_FOUND);
    },
    getTeamMemberTypes: async () => ok("Team member types loaded.", ROLES),
  }) satisfies Partial<Handlers>;
