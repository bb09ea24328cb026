import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "../src/config.ts";

const SECRET = "x".repeat(32);

describe("configuration from the environment", () => {
  it("defaults to port 3000 on loopback, data in ./data, the embedded database and demo mode", () => {
    expect(readConfig({})).toEqual({
      port: 3000,
      host: "127.0.0.1",
      dataDir: path.resolve("data"),
      databaseUrl: undefined,
      demo: true,
      demoPassword: undefined,
      firstAdmin: undefined,
      jwtSecret: undefined,
      sessionTtlSeconds: 43_200,
      intakeToken: undefined,
      maxUploadBytes: 10 * 1024 * 1024,
    });
  });

  it("uses PostgreSQL when DATABASE_URL is set, outside demo mode, with a first admin", () => {
    expect(
      readConfig({
        DATABASE_URL: "postgres://u:p@127.0.0.1/db",
        PORT: "8080",
        JWT_SECRET: SECRET,
        FIRST_ADMIN_EMAIL: "boss@example.com",
        FIRST_ADMIN_PASSWORD: "secret1",
      }),
    ).toMatchObject({
      port: 8080,
      databaseUrl: "postgres://u:p@127.0.0.1/db",
      demo: false,
      firstAdmin: { email: "boss@example.com", password: "secret1", name: "Administrator" },
    });
  });

  it("names every wrong setting at once", () => {
    try {
      readConfig({ PORT: "http", DATABASE_URL: "mysql://x", FIRST_ADMIN_EMAIL: "boss", INTAKE_TOKEN: "short", DEMO: "yes" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        'PORT must be a whole number from 0 to 65535 (got "http")',
        "DATABASE_URL must be a postgres:// or postgresql:// connection string",
        'DEMO must be 1 or 0 (got "yes")',
        "FIRST_ADMIN_EMAIL must be an e-mail address when FIRST_ADMIN_PASSWORD is set",
        "FIRST_ADMIN_PASSWORD must be at least 6 characters when FIRST_ADMIN_EMAIL is set",
        "JWT_SECRET is required outside demo mode (at least 32 characters)",
        "INTAKE_TOKEN must be at least 24 characters",
      ]);
    }
  });
});
