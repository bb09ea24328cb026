import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { Button } from "react-aria-components";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { toast } from "../../../components/ui/toast.tsx";
import { deleteTeamMember } from "../api/delete-team-member.ts";
import { teamMembersQuery, type TeamMember } from "../api/get-team-members.ts";
import { EmptyRow, RouterLink, ServerRefusal, TableScroll, rowsOf } from "./admin-page.tsx";
import { refetchAfterCommand } from "../../../lib/read-your-writes.ts";

/** The Team Member List (ADMIN-1): #, Name, Email, Password (masked), Type, Action. */
export const TeamMemberTable = ({ editingId, labelledBy }: { editingId?: string; labelledBy: string }) => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const answer = useSuspenseQuery(teamMembersQuery()).data;
  const [toDelete, setToDelete] = useState<TeamMember | undefined>(undefined);

  const remove = useMutation({
    mutationFn: (member: TeamMember) => deleteTeamMember(member.id),
    onSuccess: async (result, member) => {
      toast.answer(result);
      setToDelete(undefined);
      if (result.status !== 1) return;
      await refetchAfterCommand(queryClient, result, ["staff"]);
      // The form cannot go on editing someone who is gone.
      if (member.id === editingId) await navigate({ to: "/admin/manage-team" });
    },
  });

  if (answer.status !== 1) return <ServerRefusal answer={answer} />;
  const members = rowsOf(answer);
  return (
    <>
      <TableScroll label="Team members">
        <table className="data-table" aria-labelledby={labelledBy}>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Password</th>
              <th scope="col">Type</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {members.length === 0 ? <EmptyRow columns={6} /> : null}
            {members.map((member, index) => (
              <tr key={member.id} aria-current={member.id === editingId ? "true" : undefined}>
                <td>{index + 1}</td>
                <td>{member.name}</td>
                <td>{member.email}</td>
                <td>{member.password}</td>
                <td>{member.type}</td>
                <td className="admin-table-actions">
                  <RouterLink
                    to="/admin/manage-team/$teamMemberId"
                    params={{ teamMemberId: member.id }}
                    className="button button-small"
                    aria-label={`Edit ${member.name}`}
                  >
                    Edit
                  </RouterLink>
                  <Button className="button button-small button-danger" aria-label={`Delete ${member.name}`} onPress={() => setToDelete(member)}>
                    Delete
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <ConfirmDialog
        isOpen={toDelete !== undefined}
        busy={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
        onCancel={() => setToDelete(undefined)}
      />
    </>
  );
};
