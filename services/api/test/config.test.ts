import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "../src/config.ts";

describe("configuration from the environment", () => {
  it("defaults to port 3000 on loopback with data in ./data and the embedded database", () => {
    expect(readConfig({})).toEqual({ port: 3000, host: "127.0.0.1", dataDir: path.resolve("data"), databaseUrl: undefined });
  });

  it("uses PostgreSQL when DATABASE_URL is set", () => {
    expect(readConfig({ DATABASE_URL: "postgres://u:p@127.0.0.1/db", PORT: "8080" })).toMatchObject({
      port: 8080,
      databaseUrl: "postgres://u:p@127.0.0.1/db",
    });
  });

  it("names every wrong setting at once", () => {
    try {
      readConfig({ PORT: "http", DATABASE_URL: "mysql://x" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        'PORT must be a whole number from 0 to 65535 (got "http")',
        "DATABASE_URL must be a postgres:// or postgresql:// connection string",
      ]);
    }
  });
});
