import { mergeConfig } from "vitest/config";
// The shared settings for workspaces whose tests use PostgreSQL (see the file for why).
import shared from "@etd/infra/vitest-database-config";

export default mergeConfig(shared, { test: { globalSetup: ["test/support/warm-compile-cache.ts"] } });
