import { testServers } from "@etd/infra/test-database";
import { defineConfig } from "vitest/config";

/*
 * Pure tests (`*.test.ts`) and browser tests (`*.e2e.test.ts`). Each browser test file starts its
 * own API process, database and Chromium. As in the database workspaces, one file runs per
 * PostgreSQL server named in TEST_DATABASE_URL (ADR 0029): a server's read horizon spans all its
 * databases. Tests wait for conditions, never for time, so files running side by side only take
 * longer; how fast the live updates come is measured by the benchmarks.
 */
const workers = testServers().length;

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/support/global-setup.ts"],
    fileParallelism: workers > 1,
    maxWorkers: workers,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
