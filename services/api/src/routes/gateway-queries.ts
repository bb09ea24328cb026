import { paymentGateways } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import type { Handlers } from "../http/endpoint.ts";
import { ok } from "../http/reply.ts";

/*
 * Gateway Setting's list (ADMIN-2), from the gateways projection: one entry per gateway per
 * domain (000 §3 `is_secondary_domain`), so each of the two selectors shows its domain's active
 * gateway; an entry's `id` is what payment-gateway-setting takes as `gatewayDetails.gatewayId`.
 */

export const gatewayQueryHandlers = (deps: ApiDeps) =>
  ({
    getPaymentGateways: async () => ok("Payment gateways loaded.", await paymentGateways(deps.readDb.query)),
  }) satisfies Partial<Handlers>;
