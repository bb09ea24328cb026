import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { chromiumInstalled, chromiumPath } from "../src/chromium-renderer.ts";

/*
 * P8 / DESIGN §8: one warm Chromium renders every PDF, and it must not outlive the API. A crash
 * test SIGKILLs the API, which cannot close anything on its way out; a browser driven over a
 * WebSocket lives on as an orphan (adopted by init), holding memory and a profile directory, and
 * every restart leaves another. Driven over a pipe, it sees the pipe close and exits.
 *
 * The child gets its own TMPDIR, so its browser's profile directory (puppeteer makes it there)
 * names it in every Chromium command line: what is left of it afterwards is found by that.
 */

const chromium = await chromiumInstalled();
if (!chromium) console.warn(`\n*** Chromium orphan test SKIPPED: no Chromium at ${chromiumPath()} (set CHROMIUM_PATH). ***\n`);

interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly cmdline: string;
}

/** Every live process, from /proc (Linux, where the API runs). */
const processes = async (): Promise<ProcessInfo[]> => {
  const found: ProcessInfo[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      // "pid (comm) state ppid …"; comm may hold spaces or parentheses, so read after the last ")".
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z") continue;
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, "utf8")).replaceAll("\0", " ");
      found.push({ pid: Number(entry), ppid: Number(ppid), cmdline });
    } catch {
      // The process ended while it was being read.
    }
  }
  return found;
};

const browsersOf = async (marker: string) => (await processes()).filter((p) => p.cmdline.includes(marker) && !p.cmdline.includes("render-then-wait"));

describe.skipIf(!chromium)("P8: the shared Chromium dies with the process that started it", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it("P8: after SIGKILL of a process that rendered a PDF, no Chromium of it is left running (none adopted by init)", async () => {
    const tmp = await mkdtemp(path.join(tmpdir(), "etd-orphans-"));
    const child = spawn(process.execPath, [path.join(import.meta.dirname, "support", "render-then-wait.ts")], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["ignore", "pipe", "inherit"],
    });
    cleanups.push(async () => {
      // Whatever the outcome, nothing of this test stays behind.
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      for (const left of await browsersOf(tmp)) process.kill(left.pid, "SIGKILL");
      await rm(tmp, { recursive: true, force: true });
    });

    const rendered = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8");
        if (out.includes("\n")) resolve(out.trim());
      });
      child.once("exit", (code) => reject(new Error(`the child exited (${String(code)}) before rendering: ${out}`)));
    });
    expect(rendered).toMatch(/^rendered \d+$/);

    // The browser runs, as the child's: without this the check below would prove nothing.
    const running = await browsersOf(tmp);
    expect(running.length).toBeGreaterThan(0);
    expect(running.some((p) => p.ppid === child.pid)).toBe(true);

    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));

    const deadline = Date.now() + 30_000;
    let left = await browsersOf(tmp);
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      left = await browsersOf(tmp);
    }
    expect(left.map((p) => `${String(p.pid)} (parent ${String(p.ppid)}): ${p.cmdline.slice(0, 120)}`)).toEqual([]);
  }, 30_000);
});
