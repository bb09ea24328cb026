export { createApp, allEndpoints, type AppDeps } from "./app.ts";
export { readConfig, ConfigError, type Config } from "./config.ts";
export { openRuntime, type Runtime, type RuntimeOptions } from "./runtime.ts";
