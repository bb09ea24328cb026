import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** One gateway for one domain (000 §3): `is_active` '1' marks the domain's active one. */
export interface PaymentGateway {
  readonly id: string;
  readonly gateway_name: string;
  readonly is_active: string;
  readonly is_secondary_domain: 0 | 1;
}

export const paymentGatewaysQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.gateways, "list"],
    queryFn: ({ signal }) => apiRequest<readonly PaymentGateway[] | null>("GET", "/admin/payment-gateways", { signal }),
  });
