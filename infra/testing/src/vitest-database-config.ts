import { defineConfig } from "vitest/config";

/*
 * The test settings of every workspace whose tests use PostgreSQL. Test files share one server,
 * whose read horizon spans every database: a file holding transactions open would hold back
 * another file's readers of the log, so files run one at a time. The timeouts only catch a test
 * that hangs: every test waits for its condition, and a machine busy with other work (CI beside
 * other jobs) may take several times as long to reach it.
 */
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
