import { LANDING_DOMAINS, type LandingDomain } from "@etd/events";
import { activateGatewayIn } from "./gateway-setup.ts";
import type { TestApi } from "./test-api.ts";

/*
 * An invoice (ADMIN-6) names the active payment gateway of the order's landing domain, and an order
 * whose domain has none cannot be invoiced: tests that send invoices set one up first, as an Admin
 * would under Gateway Setting (ADMIN-2).
 */

/** Registers `gatewayName` (once) and makes it the active gateway of `domains`. */
export const activateGateway = (api: TestApi, gatewayName = "Stripe", domains: readonly LandingDomain[] = LANDING_DOMAINS): Promise<void> =>
  activateGatewayIn(api.runtime.deps.store, gatewayName, domains);
