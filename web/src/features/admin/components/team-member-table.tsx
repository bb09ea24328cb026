import { isAllowed } from "@etd/contract";
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useState } from "react";
import { Button } from "react-aria-components";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { toast } from "../../../components/ui/toast.tsx";
import { ACCESS, TEAM } from "@etd/contract/endpoints";
import { callApi, refetchAfterCommand } from "../../../lib/api-client.ts";
import { teamMembersQuery, type TeamMember } from "../../../lib/team-members.ts";
import { EmptyRow, RouterLink, ServerRefusal, TableScroll, rowsOf } from "../../../components/ui/admin-page.tsx";
import { sessionAtom } from "../../../lib/session.ts";

/**
 * The Team Member List (ADMIN-1): #, Name, Email, Password (masked), Type, 2FA (issue 16: whether
 * the member uses two-factor sign-in), Open orders (issue 27: against their capacity), Action. An
 * Admin may reset a member's second factor, after a confirmation that says what follows.
 */
export const TeamMemberTable = ({ editingId, labelledBy }: { editingId?: string; labelledBy: string }) => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const answer = useSuspenseQuery(teamMembersQuery()).data;
  const [toDelete, setToDelete] = useState<TeamMember | undefined>(undefined);
  const [toReset, setToReset] = useState<TeamMember | undefined>(undefined);
  // The name stays in the dialog while it closes.
  const [resetName, setResetName] = useState("");
  // What to offer; the server checks the same permission.
  const me = useAtomValue(sessionAtom);
  const role = me?.role;
  const mayReset = role !== undefined && isAllowed(role, "team.reset-two-factor");
  // Only an Admin edits an Admin or another Manager (ADR 0027): the list offers no Edit the server would refuse.
  const mayEdit = (member: TeamMember) => role === "Admin" || member.id === me?.id || (member.type !== "Admin" && member.type !== "Manager");

  const remove = useMutation({
    mutationFn: (member: TeamMember) => callApi(TEAM.deleteTeamMember, { body: { teamMemberId: member.id } }),
    onSuccess: async (result, member) => {
      toast.answer(result);
      setToDelete(undefined);
      if (result.status !== 1) return;
      await refetchAfterCommand(queryClient, result, TEAM.deleteTeamMember);
      // The form cannot go on editing someone who is gone.
      if (member.id === editingId) await navigate({ to: "/admin/manage-team" });
    },
  });

  const reset = useMutation({
    mutationFn: (member: TeamMember) => callApi(ACCESS.resetTwoFactor, { body: { id: member.id } }),
    onSuccess: async (result) => {
      toast.answer(result);
      setToReset(undefined);
      if (result.status === 1) await refetchAfterCommand(queryClient, result, ACCESS.resetTwoFactor);
    },
  });

  if (answer.status !== 1) return <ServerRefusal answer={answer} />;
  const members = rowsOf(answer);
  return (
    <>
      <TableScroll label="Team members">
        <table className="data-table team-table" aria-labelledby={labelledBy}>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Password</th>
              <th scope="col">Type</th>
              <th scope="col">2FA</th>
              <th scope="col">Open orders</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {members.length === 0 ? <EmptyRow columns={8} /> : null}
            {members.map((member, index) => (
              <tr key={member.id} aria-current={member.id === editingId ? "true" : undefined}>
                <td>{index + 1}</td>
                <td className="team-name">{member.name}</td>
                <td>{member.email}</td>
                <td>{member.password}</td>
                <td>{member.type}</td>
                <td>{member.twoFactor ? "On" : "Off"}</td>
                {/* Issue 27: the open orders against the capacity Take next stops at ("3 of 12"), or just the count without one. */}
                <td>{member.capacity === null ? member.openOrders : `${member.openOrders} of ${member.capacity}`}</td>
                <td>
                  <div className="admin-table-actions">
                    {mayEdit(member) ? (
                      <RouterLink
                        to="/admin/manage-team/$teamMemberId"
                        params={{ teamMemberId: member.id }}
                        className="button button-small"
                        aria-label={`Edit ${member.name}`}
                      >
                        Edit
                      </RouterLink>
                    ) : null}
                    <Button className="button button-small button-danger" aria-label={`Delete ${member.name}`} onPress={() => setToDelete(member)}>
                      Delete
                    </Button>
                    {mayReset && member.twoFactor ? (
                      <Button className="button button-small" aria-label={`Reset 2FA for ${member.name}`} onPress={() => {
                          setResetName(member.name);
                          setToReset(member);
                        }}
                      >
                        Reset 2FA
                      </Button>
                    ) : null}
                  </div>
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
      <ConfirmDialog
        isOpen={toReset !== undefined}
        message={`Reset two-factor sign-in for ${resetName}? They will sign in with their password and set it up again.`}
        busy={reset.isPending}
        onConfirm={() => toReset && reset.mutate(toReset)}
        onCancel={() => setToReset(undefined)}
      />
    </>
  );
};
