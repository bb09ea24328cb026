import { Result, Schema } from "effect";
import type { GatewayId } from "@etd/events";
import type { Endpoint } from "../http/endpoint.ts";
import { decodeInput } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { replyTo, runGatewayCommand } from "../commands/run-command.ts";

const SELECT_GATEWAY = "Please select a gateway.";

/** ADMIN-2: `gatewayDetails.gatewayId` is the id the gateway list hands out; 0 primary domain, 1 secondary. */
export const GatewaySettingRequest = Schema.Struct({
  gatewayDetails: Schema.Struct({
    gatewayId: Schema.Union([Schema.String, Schema.Int])
      .check(Schema.makeFilter((v: string | number) => /^[A-Za-z0-9_-]{1,64}$/.test(String(v).trim()) || SELECT_GATEWAY))
      .pipe(Schema.annotateKey({ messageMissingKey: SELECT_GATEWAY })),
    isSecondaryDomain: Schema.Literals([0, 1, "0", "1"]).pipe(
      Schema.annotateKey({ messageMissingKey: "Please choose the domain." }),
    ),
  }).pipe(Schema.annotateKey({ messageMissingKey: SELECT_GATEWAY })),
});

export const gatewayEndpoints = (deps: ApiDeps): Endpoint[] => [
  {
    method: "post",
    path: "/admin/payment-gateway-setting",
    guard: "gateways.manage",
    summary: "Make a gateway the active one for a customer domain (ADMIN-2)",
    body: GatewaySettingRequest,
    handle: async (context) => {
      const input = decodeInput(GatewaySettingRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const { gatewayId, isSecondaryDomain } = input.success.gatewayDetails;
      const ran = await runGatewayCommand(deps, context, {
        type: "SelectGateway",
        gatewayId: String(gatewayId).trim() as GatewayId,
        domain: String(isSecondaryDomain) === "1" ? "secondary" : "primary",
      });
      return replyTo(ran, "Payment gateway has been updated successfully.");
    },
  },
];
