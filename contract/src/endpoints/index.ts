/*
 * Every endpoint of the API, declared once (declare.ts, ADR 0033), by area. The API binds a
 * handler to each name; the web app imports the area it calls.
 */
import { ACCESS } from "./access.ts";
import { AUDIT } from "./audit.ts";
import { DASHBOARD } from "./dashboard.ts";
import { OPERATIONS } from "./operations.ts";
import { ORDER_PAGE } from "./order-page.ts";
import { ORDERS } from "./orders.ts";
import { QUEUES } from "./queues.ts";
import { SERVICE_LEVELS } from "./service-levels.ts";
import { TEAM } from "./team.ts";

export * from "./declare.ts";
export { ACCESS, AUDIT, DASHBOARD, OPERATIONS, ORDER_PAGE, ORDERS, QUEUES, SERVICE_LEVELS, TEAM };
// Take next's refusal at capacity (issue 27), for the API and the queues' button.
export { atCapacityMessage } from "./orders.ts";

/** Every area, once: ENDPOINTS is made from this list, and the contract's test walks it for a name two areas share. */
export const AREAS = [ACCESS, AUDIT, DASHBOARD, OPERATIONS, ORDER_PAGE, ORDERS, QUEUES, SERVICE_LEVELS, TEAM] as const;

/** Every endpoint by name. */
export const ENDPOINTS = { ...ACCESS, ...AUDIT, ...DASHBOARD, ...OPERATIONS, ...ORDER_PAGE, ...ORDERS, ...QUEUES, ...SERVICE_LEVELS, ...TEAM };
