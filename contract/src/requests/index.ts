/*
 * Every request body, query and path parameter the API takes, as Effect Schemas with the specs'
 * messages (ADR 0012). The API decodes each request once, at the edge, with these; the web app
 * imports their types only (`import type`), never these values, so its bundle stays free of the
 * schema library. A body's type as a client sends it is `Body<typeof SomeRequest>`.
 */
import type * as Schema from "effect/Schema";

export type Body<S extends Schema.Top> = S["Encoded"];

export * from "./fields.ts";
export * from "./auth.ts";
export * from "./orders.ts";
export * from "./team.ts";
export * from "./gateways.ts";
export * from "./public.ts";
export * from "./queries.ts";
export * from "./export.ts";
export * from "./service-levels.ts";
export * from "./operations.ts";
