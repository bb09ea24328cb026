export * from "./orders-v1.ts";
export * from "./relay.ts";
export * from "./start-relay.ts";
