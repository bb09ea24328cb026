import path from "node:path";

/** Settings read from the environment once at start. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** Where the embedded database and uploads live when no DATABASE_URL is given. */
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
}

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Configuration is not valid:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.problems = problems;
  }
}

/** Reads and checks every setting, reporting all problems at once rather than the first. */
export const readConfig = (env: NodeJS.ProcessEnv): Config => {
  const problems: string[] = [];

  const portText = env.PORT ?? "3000";
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port < 0 || port > 65_535) {
    problems.push(`PORT must be a whole number from 0 to 65535 (got "${portText}")`);
  }

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined) {
    let protocol = "";
    try {
      protocol = new URL(databaseUrl).protocol;
    } catch {
      protocol = "";
    }
    if (protocol !== "postgres:" && protocol !== "postgresql:") {
      problems.push("DATABASE_URL must be a postgres:// or postgresql:// connection string");
    }
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host: env.HOST || "127.0.0.1",
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    databaseUrl,
  };
};
