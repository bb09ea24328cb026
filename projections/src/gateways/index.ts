export { gatewaysProjection, GATEWAY_TABLES } from "./gateways-projection.ts";
export { paymentGateways, type PaymentGatewayRow } from "./gateways-queries.ts";
