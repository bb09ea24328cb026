import { ROLES } from "@etd/contract";
import { TeamMemberIdParam } from "@etd/contract/requests";
import { staffMember, staffMembers } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import { staffEndpoint, type Endpoint } from "../http/endpoint.ts";
import { fail, ok } from "../http/reply.ts";

/*
 * Manage Team's reads (ADMIN-1), from the staff projection. The list's Password column gets a
 * fixed mask and the edit form an empty password (an empty password on update keeps the current
 * one); no password or hash exists on the read side.
 */

const NOT_FOUND = "Team member not found.";

const isStaffId = (value: unknown): value is string => typeof value === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(value);

export const staffQueryEndpoints = (deps: ApiDeps): Endpoint[] => [
  staffEndpoint({
    method: "get",
    path: "/admin/get-team-member-list",
    guard: "staff.manage",
    reads: ["staff"],
    summary: "The Team Member List: name, e-mail, type and a masked password, deleted members left out (ADMIN-1)",
    handle: async () => ok("Team members loaded.", await staffMembers(deps.readDb.query)),
  }),
  staffEndpoint({
    method: "get",
    path: "/admin/team-member-info/:id",
    guard: "staff.manage",
    reads: ["staff"],
    summary: "One team member for the edit form; the password comes back empty (ADMIN-1)",
    params: TeamMemberIdParam,
    answers: { 404: NOT_FOUND },
    handle: async ({ params }) => {
      const { id } = params;
      const member = isStaffId(id) ? await staffMember(deps.readDb.query, id) : undefined;
      return member ? ok("Team member loaded.", member) : fail(404, NOT_FOUND);
    },
  }),
  staffEndpoint({
    method: "get",
    path: "/admin/get-team-member-type",
    guard: "staff.manage",
    reads: [],
    summary: "The types a team member can have: Admin, Manager, Team, Telecaller, Night Staff (000 §5)",
    handle: async () => ok("Team member types loaded.", ROLES),
  }),
];
