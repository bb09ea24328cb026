import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/*
 * The projector CLI (`src/cli.ts`) as a real child process, the way an operator runs it, so a
 * test can kill it with SIGKILL at any instruction: no finally block, no rollback sent, sockets
 * just gone.
 */

const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
const PROJECTIONS_DIR = fileURLToPath(new URL("../..", import.meta.url));

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ProjectorProcess {
  readonly pid: number;
  /** Resolves when the process has ended, however it ended. */
  readonly exited: Promise<Exit>;
  /** Everything it printed so far, stdout and stderr interleaved. */
  output(): string;
  kill(signal: NodeJS.Signals): void;
}

export const startProjectorProcess = (databaseUrl: string, args: readonly string[], settings: Record<string, string> = {}): ProjectorProcess => {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: PROJECTIONS_DIR,
    env: { ...process.env, ...settings, DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    // Only the end matters when a run goes wrong; a long run must not grow without bound.
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise<Exit>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  if (child.pid === undefined) throw new Error(`could not start ${CLI}`);
  const pid = child.pid;
  return {
    pid,
    exited,
    output: () => output,
    kill: (signal) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(pid, signal);
      } catch (error) {
        // Gone already, its exit not yet reported: nothing left to signal.
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
    },
  };
};

/** Waits for the process to end, failing with its output when it takes longer than `ms`. */
export const exitWithin = async (projector: ProjectorProcess, ms: number): Promise<Exit> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      projector.kill("SIGKILL");
      reject(new Error(`projector ${projector.pid} did not finish within ${ms} ms; its output ended with:\n${projector.output().slice(-4000)}`));
    }, ms);
  });
  try {
    return await Promise.race([projector.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
};
