import { defineConfig } from "vitest/config";
import { shareCompileCache } from "./compile-cache.ts";
import { LongestFirst } from "./longest-first.ts";
import { testServers } from "./test-database.ts";

/*
 * The test settings of every workspace whose tests use PostgreSQL. A server's read horizon spans
 * all its databases: a file holding transactions open would hold back another file's readers of
 * the log. So files on one server run one at a time, and with several servers named in
 * TEST_DATABASE_URL, one worker runs per server (ADR 0029). The timeouts only catch a test that
 * hangs: every test waits for its condition, and a machine busy with other work (CI beside other
 * jobs) may take several times as long to reach it. The processes the tests start load their
 * modules from Node's compile cache (compile-cache.ts).
 */
const workers = testServers().length;
shareCompileCache();

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: workers > 1,
    maxWorkers: workers,
    // The longest files first, so that neither worker is left idle at the end (longest-first.ts).
    sequence: { sequencer: LongestFirst },
  },
});
