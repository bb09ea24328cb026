import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files share one PostgreSQL server, whose read horizon spans every database: a file
    // holding transactions open would hold back another file's readers of the log.
    fileParallelism: false,
  },
});
