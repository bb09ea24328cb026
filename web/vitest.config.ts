import { defineConfig } from "vitest/config";
import { shareCompileCache } from "@etd/infra/compile-cache";

/*
 * Pure tests (`*.test.ts`) and browser tests (`*.e2e.test.ts`). Browser test files run one at a
 * time: each starts its own API process, database and Chromium, which keep two cores busy by
 * themselves. Two files side by side took more than twice as long each (ADR 0029). Tests wait for
 * conditions, never for time; how fast live updates come is measured by the benchmarks. Each file
 * starts the API as a process: it loads its modules from Node's compile cache (compile-cache.ts).
 */
shareCompileCache();
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/support/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
