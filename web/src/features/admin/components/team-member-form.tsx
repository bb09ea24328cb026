import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useAtomValue } from "jotai";
import { useCallback } from "react";
import { Button } from "react-aria-components";
import { toast } from "../../../components/ui/toast.tsx";
import { sessionAtom } from "../../../lib/session.ts";
import { TEAM } from "@etd/contract/endpoints";
import { callApi, refetchAfterCommand } from "../../../lib/api-client.ts";
import { teamMemberTypesQuery } from "../../../lib/team-members.ts";
import { useValidatedForm } from "../../../lib/use-validated-form.ts";
import { TEAM_MEMBER_TYPES, validateTeamMember, type TeamMemberValues } from "../utils/form-rules.ts";
import { RouterLink, rowsOf } from "../../../components/ui/admin-page.tsx";
import { ConsoleForm, SelectField, TextInputField } from "../../../components/ui/form-fields.tsx";

const EMPTY: TeamMemberValues = { name: "", email: "", password: "", type: "" };

/**
 * Add or edit a team member (ADMIN-1). Editing starts from the member as the server has them,
 * with an empty password that keeps the current one when left so.
 */
export const TeamMemberForm = ({ editing }: { editing?: { id: string; values: TeamMemberValues } }) => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const types = useSuspenseQuery(teamMemberTypesQuery()).data;
  // The server's list; the spec's five if it could not say.
  const listed = rowsOf(types).length > 0 ? rowsOf(types) : TEAM_MEMBER_TYPES;
  const isEdit = editing !== undefined;
  // The server refuses these anyway (the staff decider); the form does not offer them.
  const me = useAtomValue(sessionAtom);
  const isSelf = editing !== undefined && editing.id === me?.id;
  // Only an Admin edits another Manager: role, password, name or e-mail (ADR 0027).
  const isPeerManager = editing !== undefined && !isSelf && me?.role !== "Admin" && editing.values.type === "Manager";
  const typeNames = me?.role === "Admin" ? listed : listed.filter((name) => name !== "Admin");
  const validate = useCallback((values: TeamMemberValues) => validateTeamMember(values, isEdit), [isEdit]);
  const form = useValidatedForm(editing?.values ?? EMPTY, validate);

  const save = useMutation({
    mutationFn: (values: TeamMemberValues) =>
      editing ? callApi(TEAM.updateTeamMember, { body: { ...values, tmId: editing.id } }) : callApi(TEAM.addTeamMember, { body: values }),
    onSuccess: async (answer) => {
      toast.answer(answer);
      if (answer.status !== 1) return;
      if (!editing) form.reset();
      await refetchAfterCommand(queryClient, answer, editing ? TEAM.updateTeamMember : TEAM.addTeamMember);
      if (editing) await navigate({ to: "/admin/manage-team" });
    },
  });

  return (
    <ConsoleForm form={form} className="admin-form admin-form-grid" aria-label={isEdit ? "Edit team member" : "Add team member"} onValid={(values) => save.mutate(values)}>
      <TextInputField
        label="Name"
        binding={form.field("name")}
        autoComplete="off"
        isRequired
        isDisabled={isPeerManager}
        {...(isPeerManager ? { description: "Only an Admin can change another Manager's name or email." } : {})}
      />
      <TextInputField label="Email" type="email" binding={form.field("email")} autoComplete="off" isRequired isDisabled={isPeerManager} />
      <TextInputField
        label="Password"
        type="password"
        binding={form.field("password")}
        autoComplete="new-password"
        placeholder={isEdit ? "Leave empty to keep the current password" : undefined}
        isRequired={!isEdit}
        isDisabled={isPeerManager}
        {...(isPeerManager ? { description: "Only an Admin can set another Manager's password." } : {})}
      />
      <SelectField
        label="Type"
        binding={form.field("type")}
        placeholder="Select type"
        options={typeNames.map((name) => ({ id: name, label: name }))}
        isRequired
        isDisabled={isSelf || isPeerManager}
        {...(isSelf ? { description: "You cannot change your own role." } : isPeerManager ? { description: "Only an Admin can change a Manager's role." } : {})}
      />
      <div className="admin-form-actions">
        <Button type="submit" className="button button-primary" isDisabled={save.isPending || isPeerManager}>
          {isEdit ? "Update" : "Submit"}
        </Button>
        {isEdit ? (
          <RouterLink to="/admin/manage-team" className="button">
            Cancel
          </RouterLink>
        ) : null}
      </div>
    </ConsoleForm>
  );
};
