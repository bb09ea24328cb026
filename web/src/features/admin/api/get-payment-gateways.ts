import { queryOptions } from "@tanstack/react-query";
import type { PaymentGatewayRow } from "@etd/contract";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { queryRequest } from "../../../lib/read-your-writes.ts";

/** One gateway for one domain (000 §3), the contract's: `is_active` '1' marks the domain's active one. */
export type PaymentGateway = PaymentGatewayRow;

export const paymentGatewaysQuery = () =>
  queryOptions({
    queryKey: [...queryKeys.gateways, "list"],
    queryFn: (context) => apiRequest<readonly PaymentGateway[] | null>("GET", "/admin/payment-gateways", queryRequest(context)),
  });
