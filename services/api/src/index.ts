export { createApp, allEndpoints } from "./app.ts";
export type { AppDeps } from "./api-deps.ts";
export { readConfig, ConfigError, type Config } from "./config.ts";
export { openRuntime, type Runtime, type RuntimeOptions } from "./runtime.ts";
