import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/*
 * The real API as its own process, exactly as `npm start` runs it (`node services/api/src/main.ts`),
 * serving the built web app. Only the settings given here reach it: the test's own environment
 * must not leak a DATABASE_URL or DEMO into the child.
 */

const MAIN = fileURLToPath(new URL("../../../services/api/src/main.ts", import.meta.url));

const CONFIG_VARIABLES = [
  "PORT",
  "HOST",
  "DATA_DIR",
  "DATABASE_URL",
  "DEMO",
  "DEMO_PASSWORD",
  "FIRST_ADMIN_EMAIL",
  "FIRST_ADMIN_PASSWORD",
  "FIRST_ADMIN_NAME",
  "JWT_SECRET",
  "SESSION_TTL_SECONDS",
  "INTAKE_TOKEN",
  "MAX_UPLOAD_MB",
];

export interface ApiServer {
  /** e.g. http://127.0.0.1:43121 */
  readonly base: string;
  /** What the process printed so far, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const LISTENING = /Listening on (http:\/\/\S+)/;

export const startApiServer = async (settings: Record<string, string>, startTimeoutMs = 60_000): Promise<ApiServer> => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  const child = spawn(process.execPath, [MAIN], { env: { ...env, ...settings }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ended = () => child.exitCode !== null || child.signalCode !== null;

  const stop = async () => {
    if (ended()) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the API did not listen within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
      const onData = () => {
        const match = LISTENING.exec(output);
        if (!match) return;
        clearTimeout(timer);
        child.stdout.off("data", onData);
        resolve(match[1]!);
      };
      child.stdout.on("data", onData);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the API ended before listening:\n${output}`));
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return { base, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
};
