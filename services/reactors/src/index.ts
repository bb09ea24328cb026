export * from "./start-reactors.ts";
export * from "./erasure.ts";
export * from "./mail-reactor.ts";
