import { useSuspenseQuery } from "@tanstack/react-query";
import { TEAM } from "@etd/contract/endpoints";
import { endpointQuery } from "../../../lib/endpoint-query.ts";
import { teamMembersQuery } from "../../../lib/team-members.ts";
import { AdminPage, AdminPanel, RouterLink, ServerRefusal } from "../../../components/ui/admin-page.tsx";
import { CapacityForm } from "./capacity-form.tsx";
import { TeamMemberForm } from "./team-member-form.tsx";
import { TeamMemberTable } from "./team-member-table.tsx";

/** Manage Team (ADMIN-1): the add form, or the edit form at /admin/manage-team/{id}, over the list. */
export const ManageTeamScreen = ({ editingId }: { editingId?: string }) => {
  // Someone the server does not let manage the team sees its answer, not a form it would refuse.
  const list = useSuspenseQuery(teamMembersQuery()).data;
  if (list.status !== 1) {
    return (
      <AdminPage id="manage-team-title" title="Manage Team">
        <ServerRefusal answer={list} />
      </AdminPage>
    );
  }
  return (
    <AdminPage id="manage-team-title" title="Manage Team">
      <AdminPanel id="team-form-title" heading={editingId ? "Edit Team Member" : "Add Team Member"}>
        {editingId ? <EditTeamMember key={editingId} teamMemberId={editingId} /> : <TeamMemberForm />}
      </AdminPanel>
      <AdminPanel id="team-list-title" heading="Team Member List">
        <TeamMemberTable editingId={editingId} labelledBy="team-list-title" />
      </AdminPanel>
    </AdminPage>
  );
};

const EditTeamMember = ({ teamMemberId }: { teamMemberId: string }) => {
  const answer = useSuspenseQuery(endpointQuery(TEAM.getTeamMemberInfo, { params: { id: teamMemberId } })).data;
  const member = answer.status === 1 ? answer.data : null;
  if (!member) {
    return (
      <>
        <ServerRefusal answer={answer} />
        <RouterLink to="/admin/manage-team" className="button">
          Add a team member instead
        </RouterLink>
      </>
    );
  }
  return (
    <>
      <TeamMemberForm
        editing={{ id: member.id, values: { name: member.name, email: member.email, password: "", type: member.type } }}
      />
      <CapacityForm key={`${member.id}:${member.capacity ?? ""}`} member={member} />
    </>
  );
};
