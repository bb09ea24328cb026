import { ORDERS } from "@etd/contract/endpoints";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Button } from "react-aria-components";
import { toast } from "../../../components/ui/toast.tsx";
import { callApi, refetchAfterCommand } from "../../../lib/api-client.ts";
import { useValidatedForm } from "../../../lib/use-validated-form.ts";
import { validateInvoice } from "../utils/form-rules.ts";
import { AdminPage } from "../../../components/ui/admin-page.tsx";
import { ConsoleForm, TextInputField } from "../../../components/ui/form-fields.tsx";

/** Send Invoice (ADMIN-6, 'Manage Invoices'): the server's answer as a toast (001 §8). */
export const SendInvoiceScreen = () => {
  const queryClient = useQueryClient();
  const form = useValidatedForm({ orderId: "" }, validateInvoice);
  const send = useMutation({
    mutationFn: (orderId: string) => callApi(ORDERS.sendInvoice, { body: { orderId: orderId.trim() } }),
    onSuccess: async (answer) => {
      toast.answer(answer);
      if (answer.status !== 1) return;
      form.reset();
      // The order's detail page lists the mail it was sent.
      await refetchAfterCommand(queryClient, answer, ORDERS.sendInvoice);
    },
  });
  return (
    <AdminPage id="send-invoice-title" title="Send Invoice">
      <div className="card admin-narrow">
        <ConsoleForm form={form} aria-labelledby="send-invoice-title" onValid={(values) => send.mutate(values.orderId)}>
          <TextInputField label="Order ID" binding={form.field("orderId")} inputMode="numeric" autoComplete="off" isRequired />
          <div className="admin-form-actions">
            <Button type="submit" className="button button-primary" isDisabled={send.isPending}>
              Send Invoice
            </Button>
          </div>
        </ConsoleForm>
      </div>
    </AdminPage>
  );
};
