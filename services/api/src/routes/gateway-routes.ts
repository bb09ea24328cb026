import type { GatewayId } from "@etd/events";
import type { Handlers } from "../http/endpoint.ts";
import type { ApiDeps } from "../api-deps.ts";
import { replyTo, runGatewayCommand } from "../commands/run-command.ts";

export const gatewayHandlers = (deps: ApiDeps) =>
  ({
    setPaymentGateway: async (context) => {
      const { gatewayId, isSecondaryDomain } = context.input.gatewayDetails;
      const ran = await runGatewayCommand(deps, context, {
        type: "SelectGateway",
        gatewayId: String(gatewayId).trim() as GatewayId,
        domain: String(isSecondaryDomain) === "1" ? "secondary" : "primary",
      });
      return replyTo(ran, "Payment gateway has been updated successfully.");
    },
  }) satisfies Partial<Handlers>;
