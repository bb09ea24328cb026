/*
 * The read side: the projection engine and one folder per read model (its tables, its apply, its
 * queries), kept side by side.
 */
export * from "./engine/projection.ts";
export * from "./engine/projector.ts";
export * from "./engine/lag.ts";
export { waitForPosition } from "./engine/build-worker.ts";
export { listBuilds, tableOf } from "./engine/registry.ts";
export { ALL_PROJECTIONS } from "./all-projections.ts";
export * from "./order-details/index.ts";
export * from "./reports/index.ts";
export * from "./staff/index.ts";
export * from "./gateways/index.ts";
export * from "./queue/index.ts";
export * from "./dashboard/index.ts";
export { operatorRequests } from "./engine/operator-requests.ts";
