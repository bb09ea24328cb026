export { gatewaysProjection } from "./gateways-projection.ts";
export { paymentGateways } from "./gateways-queries.ts";
