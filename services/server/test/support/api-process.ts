import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/*
 * The real API as its own operating-system process (`node src/main.ts`, as `npm start` runs it),
 * for tests that must do to it what an in-process server cannot survive: SIGKILL. Talk to it over
 * HTTP at `base`; `output()` holds what it printed, for failure messages.
 */

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

/** Settings `readConfig` reads: the test's environment must not leak any of them into the child. */
const CONFIG_VARIABLES = [
  "PORT",
  "HOST",
  "DATA_DIR",
  "DATABASE_URL",
  "DEMO",
  "DEMO_PASSWORD",
  "DEMO_ORDERS",
  "FIRST_ADMIN_EMAIL",
  "FIRST_ADMIN_PASSWORD",
  "FIRST_ADMIN_NAME",
  "JWT_SECRET",
  "SESSION_TTL_SECONDS",
  "INTAKE_TOKEN",
  "MAX_UPLOAD_MB",
  "TLS",
  "TRUST_PROXY",
  "METRICS_TOKEN",
  "PROJECTION_LEASE_SECONDS",
  "MAIL_FROM",
  "AWS_REGION",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "SES_ENDPOINT",
  "SENDGRID_API_KEY",
  "SENDGRID_BASE_URL",
  "SES_SNS_TOPIC_ARN",
  "SENDGRID_WEBHOOK_PUBLIC_KEY",
  "PUBLIC_URL",
  "REMINDER_AFTER_HOURS",
  "MAIL_RETRY_SECONDS",
  "RUN",
  "REACTOR_LEASE_SECONDS",
  "KAFKA_BROKERS",
  "KAFKA_CLIENT_ID",
  "DATABASE_MAX_CONNECTIONS",
  "REQUIRE_2FA_FOR",
];

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface ApiProcess {
  readonly pid: number;
  /** e.g. http://127.0.0.1:43121 */
  readonly base: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Settles once the process has ended, however it ended. */
  readonly exited: Promise<ProcessExit>;
  kill(signal: NodeJS.Signals): void;
  /** Kills it (SIGKILL) if it still runs, and waits for the end. */
  stop(): Promise<ProcessExit>;
}

const LISTENING = /Listening on (http:\/\/\S+)/;

/** Starts the API with exactly these settings and resolves once it listens. */
export const startApiProcess = async (
  settings: Record<string, string>,
  { startTimeoutMs = 120_000 }: { startTimeoutMs?: number } = {},
): Promise<ApiProcess> => {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  const child = spawn(process.execPath, [MAIN], { env: { ...env, ...settings }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<ProcessExit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const hasEnded = () => child.exitCode !== null || child.signalCode !== null;

  const stop = async () => {
    if (!hasEnded()) child.kill("SIGKILL");
    return exited;
  };

  let base: string;
  try {
    base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the API did not listen within ${startTimeoutMs} ms:\n${output}`)), startTimeoutMs);
      const onData = () => {
        const match = LISTENING.exec(output);
        if (!match) return;
        clearTimeout(timer);
        child.stdout.off("data", onData);
        resolve(match[1]!);
      };
      child.stdout.on("data", onData);
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`the API ended before listening (code ${code}, signal ${signal}):\n${output}`));
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    pid: child.pid!,
    base,
    output: () => output,
    exited,
    kill: (signal) => {
      // By pid: the child is node itself, no shell in between, so the signal reaches the API.
      process.kill(child.pid!, signal);
    },
    stop,
  };
};

/** A production-like process on a test database: no demo data, any free port on loopback. */
export const processSettings = (options: { databaseUrl: string; dataDir: string; jwtSecret: string }): Record<string, string> => ({
  DATABASE_URL: options.databaseUrl,
  DEMO: "0",
  JWT_SECRET: options.jwtSecret,
  PORT: "0",
  HOST: "127.0.0.1",
  DATA_DIR: options.dataDir,
  // A killed process's read models and reactors are taken over within a second, not the production 15.
  PROJECTION_LEASE_SECONDS: "1",
  REACTOR_LEASE_SECONDS: "1",
});

/** The settings of a production-like API on a test database: no demo data, one first admin. */
export const firstAdminSettings = (options: {
  databaseUrl: string;
  dataDir: string;
  admin: { email: string; password: string };
  intakeToken: string;
  jwtSecret: string;
}): Record<string, string> => ({
  ...processSettings(options),
  FIRST_ADMIN_EMAIL: options.admin.email,
  FIRST_ADMIN_PASSWORD: options.admin.password,
  INTAKE_TOKEN: options.intakeToken,
});
