import { paymentGateways } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import { staffEndpoint, type Endpoint } from "../http/endpoint.ts";
import { ok } from "../http/reply.ts";

/*
 * Gateway Setting's list (ADMIN-2), from the gateways projection: one entry per gateway per
 * domain (000 §3 `is_secondary_domain`), so each of the two selectors shows its domain's active
 * gateway; an entry's `id` is what payment-gateway-setting takes as `gatewayDetails.gatewayId`.
 */

export const gatewayQueryEndpoints = (deps: ApiDeps): Endpoint[] => [
  staffEndpoint({
    method: "get",
    path: "/admin/payment-gateways",
    guard: "gateways.manage",
    reads: ["gateways"],
    summary: "The payment gateways, once per customer domain, with the domain's active one marked (ADMIN-2)",
    handle: async () => ok("Payment gateways loaded.", await paymentGateways(deps.readDb.query)),
  }),
];
