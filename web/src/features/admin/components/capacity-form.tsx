import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { Button } from "react-aria-components";
import { TEAM } from "@etd/contract/endpoints";
import { toast } from "../../../components/ui/toast.tsx";
import { callApi, refetchAfterCommand } from "../../../lib/api-client.ts";
import { useValidatedForm } from "../../../lib/use-validated-form.ts";
import { ConsoleForm, TextInputField } from "../../../components/ui/form-fields.tsx";
import { capacityOf, validateCapacity, type CapacityValues } from "../utils/form-rules.ts";

/**
 * A member's capacity on Manage Team's edit screen (issue 27): the most open assigned orders Take
 * next lets them hold; empty is no limit. Its own save, apart from the profile: the server decides
 * it with its own command, and a refusal leaves the profile form as it was.
 */
export const CapacityForm = ({ member }: { member: { id: string; name: string; capacity: number | null; openOrders: number } }) => {
  const queryClient = useQueryClient();
  const validate = useCallback((values: CapacityValues) => validateCapacity(values), []);
  const form = useValidatedForm<CapacityValues>({ capacity: member.capacity === null ? "" : String(member.capacity) }, validate);
  const save = useMutation({
    mutationFn: (values: CapacityValues) => callApi(TEAM.setTeamMemberCapacity, { body: { tmId: member.id, capacity: capacityOf(values) } }),
    onSuccess: async (answer) => {
      toast.answer(answer);
      if (answer.status === 1) await refetchAfterCommand(queryClient, answer, TEAM.setTeamMemberCapacity);
    },
  });
  return (
    <ConsoleForm form={form} className="admin-form admin-form-grid" aria-label={`Capacity of ${member.name}`} onValid={(values) => save.mutate(values)}>
      <TextInputField
        label="Capacity (open orders)"
        binding={form.field("capacity")}
        inputMode="numeric"
        autoComplete="off"
        placeholder="No limit"
        description={`Take next stops at this many open orders; empty is no limit. ${member.name} has ${member.openOrders} open now.`}
      />
      <div className="admin-form-actions">
        <Button type="submit" className="button button-primary" isDisabled={save.isPending}>
          Save capacity
        </Button>
      </div>
    </ConsoleForm>
  );
};
