import type { GatewayId } from "@etd/events";
import { GatewaySettingRequest } from "@etd/contract/requests";
import { staffEndpoint, type Endpoint } from "../http/endpoint.ts";
import type { ApiDeps } from "../api-deps.ts";
import { replyTo, runGatewayCommand } from "../commands/run-command.ts";

export const gatewayEndpoints = (deps: ApiDeps): Endpoint[] => [
  staffEndpoint({
    method: "post",
    path: "/admin/payment-gateway-setting",
    guard: "gateways.manage",
    summary: "Make a gateway the active one for a customer domain (ADMIN-2)",
    body: GatewaySettingRequest,
    answers: { 404: "The gateway does not exist" },
    handle: async (context) => {
      const { gatewayId, isSecondaryDomain } = context.input.gatewayDetails;
      const ran = await runGatewayCommand(deps, context, {
        type: "SelectGateway",
        gatewayId: String(gatewayId).trim() as GatewayId,
        domain: String(isSecondaryDomain) === "1" ? "secondary" : "primary",
      });
      return replyTo(ran, "Payment gateway has been updated successfully.");
    },
  }),
];
