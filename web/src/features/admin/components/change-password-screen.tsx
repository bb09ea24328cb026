import { ACCESS } from "@etd/contract/endpoints";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useSetAtom } from "jotai";
import { Button } from "react-aria-components";
import { toast } from "../../../components/ui/toast.tsx";
import { clearStoredSession, sessionAtom } from "../../../lib/session.ts";
import { callApi } from "../../../lib/api-client.ts";
import { useValidatedForm } from "../../../lib/use-validated-form.ts";
import { validateNewPassword } from "../utils/form-rules.ts";
import { AdminPage } from "../../../components/ui/admin-page.tsx";
import { ConsoleForm, TextInputField } from "../../../components/ui/form-fields.tsx";

/**
 * Update Password (AUTH-8). The server ends every session of the member once the password
 * changes, so on success this one is forgotten here too and the member signs in again.
 */
export const ChangePasswordScreen = () => {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const setSession = useSetAtom(sessionAtom);
  const form = useValidatedForm({ newPassword: "" }, validateNewPassword);
  const save = useMutation({
    mutationFn: (newPassword: string) => callApi(ACCESS.changePassword, { body: { newPassword } }),
    onSuccess: async (answer) => {
      toast.answer(answer);
      if (answer.status !== 1) return;
      clearStoredSession();
      setSession(undefined);
      await navigate({ to: "/" });
      // Nothing read with the old session may be shown to whoever signs in next.
      queryClient.clear();
    },
  });
  return (
    <AdminPage id="change-password-title" title="Update Password">
      <div className="card admin-narrow">
        <ConsoleForm form={form} aria-labelledby="change-password-title" onValid={(values) => save.mutate(values.newPassword)}>
          <TextInputField label="New Password" type="password" binding={form.field("newPassword")} autoComplete="new-password" isRequired />
          <div className="admin-form-actions">
            <Button type="submit" className="button button-primary" isDisabled={save.isPending}>
              Submit
            </Button>
          </div>
        </ConsoleForm>
      </div>
    </AdminPage>
  );
};
