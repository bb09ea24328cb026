import { defineConfig } from "vitest/config";

/*
 * The test settings of every workspace whose tests use PostgreSQL. Test files share one server,
 * whose read horizon spans every database: a file holding transactions open would hold back
 * another file's readers of the log, so files run one at a time.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
