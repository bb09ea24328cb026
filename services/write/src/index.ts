/*
 * The write side. Deciders are pure (no I/O, no clock): handlers load a stream, fold it with
 * `evolve`, ask `decide`, and append what it returns with metadata added.
 */
export * from "./shared/refusal.ts";
export * from "./shared/decider.ts";
export * from "./shared/acting-staff.ts";

export * from "./orders/commands.ts";
export * from "./orders/order-state.ts";
export * from "./orders/decide-order.ts";

export * from "./staff/commands.ts";
export * from "./staff/staff-state.ts";
export * from "./staff/decide-staff.ts";

export * from "./gateways/commands.ts";
export * from "./gateways/gateway-state.ts";
export * from "./gateways/decide-gateways.ts";

export * from "./mail/commands.ts";
export * from "./mail/mail-state.ts";
export * from "./mail/decide-mail.ts";
export * from "./mail/mail-records.ts";

export * from "./service-levels/commands.ts";
export * from "./service-levels/service-level-state.ts";
export * from "./service-levels/decide-service-levels.ts";
export * from "./operations/commands.ts";
export * from "./operations/decide-operations.ts";

export * from "./invoices/commands.ts";
export * from "./invoices/invoice-register-state.ts";
export * from "./invoices/decide-invoice-register.ts";
export * from "./invoices/issue-invoice-number.ts";

export { handleCommand, loadStream, type CommandOutcome, type HandleOptions } from "./command-handler.ts";

export * from "./intake/place-order-request.ts";
export * from "./intake/intake-error.ts";
