/*
 * The API role: the HTTP edge (staff endpoints, the traveller's pages, intake, the delivery-report
 * webhooks and the web app's files). The process (services/server) builds its dependencies with
 * createAppDeps and serves createApp, or only the probes where this role does not run.
 */
export { createApp } from "./app.ts";
export { createProbeApp } from "./probes.ts";
export { createHttpServer } from "./http/server.ts";
export { createAppDeps, type ApiOptions } from "./create-app-deps.ts";
export type { AppDeps, TranslateWidget, TrustProxy } from "./api-deps.ts";
export { readMailWebhookConfig, type MailWebhookConfig } from "./mail/delivery-reports/settings.ts";
export { createFirstAdmin, DEMO_STAFF, generatePassword, seedDemo } from "./seed/seed.ts";
