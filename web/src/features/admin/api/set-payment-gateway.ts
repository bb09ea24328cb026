import type { Body, GatewaySettingRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";

/** ADMIN-2: makes `gatewayId` the active gateway of the primary (0) or secondary (1) domain. */
export const setPaymentGateway = (gatewayId: string, isSecondaryDomain: 0 | 1) =>
  apiRequest("POST", "/admin/payment-gateway-setting", { body: { gatewayDetails: { gatewayId, isSecondaryDomain } } satisfies Body<typeof GatewaySettingRequest> });
