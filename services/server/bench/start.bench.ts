import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/*
 * The cold start (issue 28): how long `npm start`'s process (services/server/src/main.ts: every
 * service in one process on the embedded database, with the demo data) takes from being spawned
 * to answering GET /api/ready with 200, on a data directory seeded before (the demo seeds once, at
 * the first start; that first start is printed, not counted). START_RUNS starts (default 3), each
 * a new process; the web build is not part of it (`npm start` builds only when web/src changed).
 * The last line is `START cold_start_s=<median> runs=<each>`; goal ≤ 12 s.
 */

const RUNS = Number(process.env.START_RUNS ?? 3);
const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));
const PORT = 43_000 + Math.floor(Math.random() * 2000);

const untilReady = async (child: ReturnType<typeof spawn>): Promise<void> => {
  let exited = false;
  child.once("exit", () => (exited = true));
  for (;;) {
    if (exited) throw new Error("the process ended before it was ready");
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/api/ready`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const start = async (dataDir: string): Promise<number> => {
  const started = performance.now();
  // The embedded database, as `npm start` without DATABASE_URL.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, [MAIN], {
    env: { ...env, DATA_DIR: dataDir, PORT: String(PORT), HOST: "127.0.0.1", DEMO_PASSWORD: "bench-demo-password" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await untilReady(child);
    return (performance.now() - started) / 1000;
  } finally {
    const ended = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await ended;
  }
};

const main = async () => {
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-start-"));
  try {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing`);
    console.log(`first start (seeds the demo): ${(await start(dataDir)).toFixed(1)} s`);
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await start(dataDir));
    const median = [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
    console.log(`START cold_start_s=${median.toFixed(1)} runs=${runs.map((s) => s.toFixed(1)).join(",")}`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
};

await main();
