import type { Role } from "../vocabulary.ts";
import { TEAM_MEMBER_NOT_FOUND, type TeamMemberInfo, type TeamMemberRow } from "../answers.ts";
import { answer, endpoints, STAFF_ACCOUNT_ANSWERS } from "./declare.ts";

/** Manage Team (ADMIN-1): the list, one member, the types, and the account changes. */
export const TEAM = endpoints({
  getTeamMemberList: {
    method: "get",
    path: "/admin/get-team-member-list",
    guard: "staff.manage",
    summary: "The Team Member List: name, e-mail, type and a masked password, deleted members left out (ADMIN-1); each member's open orders and capacity (issue 27)",
    // The open orders are the queue read model's counts per assignee.
    reads: ["staff", "queue"],
    data: answer<readonly TeamMemberRow[]>(),
  },
  getTeamMemberInfo: {
    method: "get",
    path: "/admin/team-member-info/:id",
    guard: "staff.manage",
    summary: "One team member for the edit form; the password comes back empty (ADMIN-1)",
    params: "TeamMemberIdParam",
    reads: ["staff", "queue"],
    data: answer<TeamMemberInfo>(),
    answers: { 404: TEAM_MEMBER_NOT_FOUND },
  },
  getTeamMemberTypes: {
    method: "get",
    path: "/admin/get-team-member-type",
    guard: "staff.manage",
    summary: "The types a team member can have: Admin, Manager, Team, Telecaller, Night Staff (000 §5)",
    reads: [],
    data: answer<readonly Role[]>(),
  },
  addTeamMember: {
    method: "post",
    path: "/admin/add-team-member",
    guard: "staff.manage",
    summary: "Add a team member (ADMIN-1); only an Admin adds an Admin",
    body: "AddTeamMemberRequest",
    // The staff list, and the names the reports and the audit lines show.
    changes: ["staff", "reports", "order_details"],
    data: answer<{ readonly id: string; readonly position: string | null }>(),
    answers: STAFF_ACCOUNT_ANSWERS,
  },
  updateTeamMember: {
    method: "post",
    path: "/admin/update-team-member",
    guard: "staff.manage",
    summary:
      "Update a team member; an empty password keeps the current one (ADMIN-1); decided whole against the member as they were (ADR 0027): only an Admin edits an Admin or changes a Manager's role or password, no one their own role",
    body: "UpdateTeamMemberRequest",
    // A rename reaches the queues' assignees, the reports and the audit lines too.
    changes: ["staff", "queue", "reports", "order_details"],
    data: answer<{ readonly position: string | null }>(),
    answers: STAFF_ACCOUNT_ANSWERS,
  },
  setTeamMemberCapacity: {
    method: "post",
    path: "/admin/set-team-member-capacity",
    guard: "staff.manage",
    summary: "Set the most open assigned orders a member may hold; Take next refuses at that number; null is no limit (issue 27). Unchanged, nothing is appended",
    body: "SetTeamMemberCapacityRequest",
    changes: ["staff"],
    data: answer<{ readonly position: string | null }>(),
    answers: {
      400: "The staff decider refuses the value",
      403: "Only an Admin may change an Admin",
      404: TEAM_MEMBER_NOT_FOUND,
      409: "The account changed first",
    },
  },
  deleteTeamMember: {
    method: "put",
    path: "/admin/delete-team-member",
    guard: "staff.manage",
    summary: "Delete a team member; their sessions end (ADMIN-1); only an Admin deletes an Admin, the last Admin stays",
    body: "DeleteTeamMemberRequest",
    changes: ["staff", "order_details"],
    data: answer<{ readonly position: string | null }>(),
    answers: STAFF_ACCOUNT_ANSWERS,
  },
});
