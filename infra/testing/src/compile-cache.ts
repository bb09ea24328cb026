import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/*
 * The tests start the API and the projector CLI as processes again and again: the crash tests kill
 * and restart them dozens of times, every browser test file starts one. Most of such a start is
 * Node compiling the same modules anew (about 1 s of CPU for the API's). Node's compile cache
 * (NODE_COMPILE_CACHE) keeps V8's compiled code of each module on disk, checked against the
 * module's source: a changed file is compiled again, so the processes run exactly the code they
 * would without it, only sooner. Set in the test runner's environment, every worker and every
 * process it starts inherits it. A developer's own NODE_COMPILE_CACHE is left alone.
 */

const CACHE_DIR = fileURLToPath(new URL("../../../node_modules/.cache/etd-compile-cache", import.meta.url));

export const shareCompileCache = (): void => {
  process.env.NODE_COMPILE_CACHE ??= CACHE_DIR;
};

/**
 * Node writes the cache when a process ends on its own, never when it is killed with SIGKILL,
 * which is how the crash tests end most of theirs. So before the tests, `entry` runs once with
 * settings it refuses: it loads every module it imports, then exits at once, writing the cache.
 */
export const warmCompileCache = (entry: string, args: readonly string[] = [], env: Record<string, string> = {}): void => {
  spawnSync(process.execPath, [entry, ...args], { env: { ...process.env, ...env }, stdio: "ignore", timeout: 120_000 });
};
