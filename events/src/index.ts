/*
 * The event catalogue (DESIGN §3): schemas only, no I/O. Writers build typed events and store
 * `encodeEvent(event)`; every reader goes through `decodeEvent(raw)`, which upcasts old
 * versions first.
 */
export { ROLES, LANDING_DOMAINS, ORDER_CHANGED_MESSAGE } from "./vocabulary.ts";
export * from "./shared/ids.ts";
export * from "./shared/primitives.ts";
export * from "./shared/role.ts";
export * from "./shared/landing-domain.ts";
export * from "./shared/metadata.ts";
export * from "./shared/personal-data.ts";

export * from "./orders/order-status.ts";
export * from "./orders/order-application.ts";
export * from "./orders/order-events.ts";
export * from "./orders/status-after.ts";
export { TRIP_TEXT_KEYS_V1 } from "./orders/order-upcasters.ts";
export * from "./orders/remark-text.ts";
export * from "./staff/staff-events.ts";
export * from "./gateways/gateway-events.ts";
export * from "./mail/mail-events.ts";
export * from "./invoices/invoice-events.ts";
export * from "./service-levels/service-level-events.ts";
export * from "./service-levels/service-clock.ts";
export * from "./operations/operation-events.ts";

export * from "./catalogue.ts";
export * from "./streams.ts";
export { missingUpcasters } from "./upcasting.ts";
export * from "./codec.ts";
export * from "./errors.ts";
