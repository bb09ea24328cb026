export { createApp, type AppDeps } from "./app.ts";
export { readConfig, ConfigError, type Config } from "./config.ts";
