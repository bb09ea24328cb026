/*
 * @etd/contract: what the API and the web app agree on, declared once (ADR 0012). This entry is
 * plain data and types only, so the web app may import it at run time; the request schemas,
 * which need Effect Schema, are `@etd/contract/requests` (the web app imports their types only).
 */
export * from "./vocabulary.ts";
export * from "./permissions.ts";
export * from "./queues.ts";
export * from "./queue-columns.ts";
export * from "./display-format.ts";
export * from "./answers.ts";
export * from "./rules.ts";
export * from "./order-page.ts";
export * from "./eastern-time.ts";
export * from "./brands.ts";
export * from "./public-page.ts";
export * from "./ip-address.ts";
export * from "./audit.ts";
export * from "./service-levels.ts";
export * from "./operations.ts";
export * from "./dashboard.ts";
export * from "./live.ts";
