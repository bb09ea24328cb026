import { defineConfig } from "vitest/config";

/*
 * Pure tests (`*.test.ts`) and browser tests (`*.e2e.test.ts`). Browser test files run one at a
 * time: each starts its own API process, database and Chromium, and timing assertions (a live
 * update within a second) must not compete with another suite for the CPU.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/support/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
