import type { PaymentGatewayRow } from "@etd/contract";
import { QUEUES } from "@etd/contract/endpoints";
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { Button } from "react-aria-components";
import { toast } from "../../../components/ui/toast.tsx";
import { callApi, refetchAfterCommand } from "../../../lib/api-client.ts";
import { endpointQuery } from "../../../lib/endpoint-query.ts";
import { useValidatedForm } from "../../../lib/use-validated-form.ts";
import { validateGateway } from "../utils/form-rules.ts";
import { AdminPage, AdminPanel, ServerRefusal, rowsOf } from "../../../components/ui/admin-page.tsx";
import { ConsoleForm, SelectField } from "../../../components/ui/form-fields.tsx";

const DOMAINS = [
  { isSecondaryDomain: 0, heading: "Primary Domain", label: "Primary domain gateway" },
  { isSecondaryDomain: 1, heading: "Secondary Domain", label: "Secondary domain gateway" },
] as const;

/** Gateway Setting (ADMIN-2): one selector per customer domain, each showing its active gateway. */
export const GatewaySettingScreen = () => {
  const answer = useSuspenseQuery(endpointQuery(QUEUES.getPaymentGateways, {})).data;
  if (answer.status !== 1) {
    return (
      <AdminPage id="gateway-setting-title" title="Payment Setting">
        <ServerRefusal answer={answer} />
      </AdminPage>
    );
  }
  const gateways = rowsOf(answer);
  return (
    <AdminPage id="gateway-setting-title" title="Payment Setting">
      <div className="grid-2">
        {DOMAINS.map((domain) => {
          const entries = gateways.filter((gateway) => gateway.is_secondary_domain === domain.isSecondaryDomain);
          const active = entries.find((gateway) => gateway.is_active === "1");
          return (
            <AdminPanel key={domain.isSecondaryDomain} id={`gateway-domain-${domain.isSecondaryDomain}`} heading={domain.heading}>
              {/* A new active gateway (here or from another admin) starts the form from it. */}
              <GatewayDomainForm key={active?.id ?? "none"} domain={domain} entries={entries} active={active} />
            </AdminPanel>
          );
        })}
      </div>
    </AdminPage>
  );
};

const GatewayDomainForm = ({
  domain,
  entries,
  active,
}: {
  domain: (typeof DOMAINS)[number];
  entries: readonly PaymentGatewayRow[];
  active: PaymentGatewayRow | undefined;
}) => {
  const queryClient = useQueryClient();
  const form = useValidatedForm({ gatewayId: active?.id ?? "" }, validateGateway);
  const save = useMutation({
    // ADMIN-2: the gateway becomes the active one of the primary (0) or secondary (1) domain.
    mutationFn: (gatewayId: string) => callApi(QUEUES.setPaymentGateway, { body: { gatewayDetails: { gatewayId, isSecondaryDomain: domain.isSecondaryDomain } } }),
    onSuccess: async (answer) => {
      toast.answer(answer);
      if (answer.status === 1) await refetchAfterCommand(queryClient, answer, QUEUES.setPaymentGateway);
    },
  });
  return (
    <ConsoleForm form={form} aria-label={domain.heading} onValid={(values) => save.mutate(values.gatewayId)}>
      <p className="admin-active-gateway" data-testid={`active-gateway-${domain.isSecondaryDomain}`}>
        Active gateway: <strong>{active ? active.gateway_name : "none"}</strong>
      </p>
      <SelectField
        label={domain.label}
        binding={form.field("gatewayId")}
        placeholder="Select gateway"
        options={entries.map((gateway) => ({ id: gateway.id, label: gateway.gateway_name }))}
        isRequired
      />
      <div className="admin-form-actions">
        <Button type="submit" className="button button-primary" isDisabled={save.isPending}>
          Submit
        </Button>
      </div>
    </ConsoleForm>
  );
};
