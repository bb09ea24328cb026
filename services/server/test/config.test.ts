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
      demoOrders: 2000,
      firstAdmin: undefined,
      jwtSecret: undefined,
      sessionTtlSeconds: 43_200,
      // Issue 16: no role must use two-factor sign-in until REQUIRE_2FA_FOR names it.
      requireTwoFactorFor: new Set(),
      intakeToken: undefined,
      maxUploadBytes: 10 * 1024 * 1024,
      tls: false,
      trustProxy: false,
      metricsToken: undefined,
      projectionLeaseMs: 15_000,
      // Issue 12: no provider credentials, so both mail labels write to DATA_DIR/outbox.
      mail: { from: "ETD Back Office <no-reply@etd.example>", ses: undefined, sendgrid: undefined, outboxDir: path.resolve("data", "outbox") },
      // Issue 12 Webhooks: both delivery-report webhooks are off (404) until configured.
      mailWebhooks: { sesTopicArn: undefined, sendgridPublicKey: undefined },
      mailing: { publicUrl: "http://localhost:3000", reminderAfterMs: 86_400_000, retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000] },
      translateWidget: undefined,
      // Issue 15: one process runs everything; the Kafka relay is off until KAFKA_BROKERS names brokers.
      roles: new Set(["api", "projector", "reactors"]),
      reactorLeaseMs: 15_000,
      maxConnections: 20,
      kafka: undefined,
    });
  });

  it("issue 15, DESIGN §9: RUN picks the roles of a process; the relay needs KAFKA_BROKERS, some roles need DATABASE_URL", () => {
    const url = "postgres://etd:etd@db:5432/etd";
    expect(readConfig({ KAFKA_BROKERS: "k1:9092, k2:9092" })).toMatchObject({
      roles: new Set(["api", "projector", "reactors", "relay"]),
      kafka: { brokers: ["k1:9092", "k2:9092"], clientId: "etd-relay" },
    });
    expect(readConfig({ DATABASE_URL: url, JWT_SECRET: "x".repeat(32), RUN: "projector" }).roles).toEqual(new Set(["projector"]));
    expect(readConfig({ DATABASE_URL: url, JWT_SECRET: "x".repeat(32), RUN: "relay,api", KAFKA_BROKERS: "[::1]:9092", KAFKA_CLIENT_ID: "relay-eu", REACTOR_LEASE_SECONDS: "5" })).toMatchObject({
      roles: new Set(["relay", "api"]),
      kafka: { brokers: ["[::1]:9092"], clientId: "relay-eu" },
      reactorLeaseMs: 5_000,
    });
    expect(() => readConfig({ DATABASE_URL: url, JWT_SECRET: "x".repeat(32), RUN: "api,mailer" })).toThrow(/RUN must list roles from api, projector, reactors, relay, separated by commas \(not understood: "mailer"\)/);
    expect(() => readConfig({ DATABASE_URL: url, JWT_SECRET: "x".repeat(32), RUN: "relay" })).toThrow(/RUN names the relay, which needs KAFKA_BROKERS/);
    expect(() => readConfig({ RUN: "api" })).toThrow(/RUN with only some roles needs DATABASE_URL/);
    // Several processes share the server's connections: fewer for those without the API, and settable.
    expect(readConfig({ DATABASE_URL: url, JWT_SECRET: "x".repeat(32), RUN: "projector" }).maxConnections).toBe(8);
    expect(readConfig({ DATABASE_URL: url, JWT_SECRET: "x".repeat(32), RUN: "api", DATABASE_MAX_CONNECTIONS: "40" }).maxConnections).toBe(40);
    expect(() => readConfig({ DATABASE_MAX_CONNECTIONS: "1" })).toThrow(/DATABASE_MAX_CONNECTIONS must be a whole number from 2 to 500 \(got "1"\)/);
    expect(() => readConfig({ KAFKA_BROKERS: "kafka", REACTOR_LEASE_SECONDS: "0" })).toThrow(
      /KAFKA_BROKERS must list host:port addresses separated by commas \(not understood: "kafka"\)[\s\S]*REACTOR_LEASE_SECONDS must be a whole number from 1 to 600/,
    );
  });

  it("issue 16, AUTH-3: REQUIRE_2FA_FOR names staff roles, comma-separated; an unknown one stops the start", () => {
    expect(readConfig({ REQUIRE_2FA_FOR: "Admin, Manager" }).requireTwoFactorFor).toEqual(new Set(["Admin", "Manager"]));
    expect(readConfig({ REQUIRE_2FA_FOR: "Night Staff" }).requireTwoFactorFor).toEqual(new Set(["Night Staff"]));
    expect(readConfig({ REQUIRE_2FA_FOR: " " }).requireTwoFactorFor).toEqual(new Set());
    // Spelt as on Manage Team: "admin" is not a role, and would leave Admins without the factor asked for.
    expect(() => readConfig({ REQUIRE_2FA_FOR: "admin,Manager,Boss" })).toThrow(
      /REQUIRE_2FA_FOR must list staff roles from Admin, Manager, Team, Telecaller, Night Staff, separated by commas \(not understood: "admin", "Boss"\)/,
    );
  });

  it("issue 12: reports wrong mail settings with the others, and takes SES and SendGrid credentials", () => {
    expect(() => readConfig({ AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", SENDGRID_API_KEY: "nope" })).toThrow(
      /AWS_SECRET_ACCESS_KEY is required when AWS_ACCESS_KEY_ID is set[\s\S]*SENDGRID_API_KEY must be a SendGrid API key/,
    );
    const { mail } = readConfig({ AWS_REGION: "eu-west-1", AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", SENDGRID_API_KEY: "SG.key" });
    expect(mail.ses).toEqual({ region: "eu-west-1", accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret", endpoint: undefined });
    expect(mail.sendgrid).toEqual({ apiKey: "SG.key", baseUrl: undefined });
  });

  it("issue 12: the mail reactor's settings: the public URL mails link to, the reminder's wait, the retry schedule", () => {
    expect(readConfig({ PORT: "8080", PUBLIC_URL: "https://etd.example/", REMINDER_AFTER_HOURS: "1.5", MAIL_RETRY_SECONDS: "30, 90" }).mailing).toEqual({
      publicUrl: "https://etd.example",
      reminderAfterMs: 5_400_000,
      retryDelaysMs: [30_000, 90_000],
    });
    expect(readConfig({ PORT: "8080" }).mailing.publicUrl).toBe("http://localhost:8080");
    expect(() => readConfig({ PUBLIC_URL: "ftp://x", REMINDER_AFTER_HOURS: "0", MAIL_RETRY_SECONDS: "soon" })).toThrow(
      /PUBLIC_URL must be an http:\/\/ or https:\/\/ address \(got "ftp:\/\/x"\)[\s\S]*REMINDER_AFTER_HOURS must be a number of hours above 0[\s\S]*MAIL_RETRY_SECONDS must be up to 10 waits/,
    );
  });

  it("issue 13, PUBLIC-3: the translation widget is off unless TRANSLATE_WIDGET_URL names a script; its extra origins are origins", () => {
    expect(readConfig({}).translateWidget).toBeUndefined();
    expect(readConfig({ TRANSLATE_WIDGET_URL: "https://translate.example/element.js?cb=translateWidgetInit", TRANSLATE_WIDGET_ORIGINS: "https://a.example, https://b.example/" }).translateWidget).toEqual({
      scriptUrl: "https://translate.example/element.js?cb=translateWidgetInit",
      origins: ["https://a.example", "https://b.example"],
    });
    // A test's or a developer's widget on this machine may be plain http; nothing else may.
    expect(readConfig({ TRANSLATE_WIDGET_URL: "http://127.0.0.1:9000/w.js" }).translateWidget?.scriptUrl).toBe("http://127.0.0.1:9000/w.js");
    for (const wrong of ["http://translate.example/w.js", "https://*.example/w.js", "javascript:alert(1)", "https://user:pw@translate.example/w.js", "not a url"]) {
      expect(() => readConfig({ TRANSLATE_WIDGET_URL: wrong }), wrong).toThrow(/TRANSLATE_WIDGET_URL must be an https:\/\/ address of a script/);
    }
    for (const wrong of ["https://a.example/path", "*", "https://*.example", "'unsafe-inline'", "http://a.example"]) {
      expect(() => readConfig({ TRANSLATE_WIDGET_URL: "https://translate.example/w.js", TRANSLATE_WIDGET_ORIGINS: wrong }), wrong).toThrow(/TRANSLATE_WIDGET_ORIGINS must list origins/);
    }
    expect(() => readConfig({ TRANSLATE_WIDGET_ORIGINS: "https://a.example" })).toThrow(/TRANSLATE_WIDGET_ORIGINS needs TRANSLATE_WIDGET_URL/);
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
      readConfig({ PORT: "http", DATABASE_URL: "mysql://x", FIRST_ADMIN_EMAIL: "boss", INTAKE_TOKEN: "short", DEMO: "yes", DEMO_ORDERS: "2e3" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        'PORT must be a whole number from 0 to 65535 (got "http")',
        "DATABASE_URL must be a postgres:// or postgresql:// connection string",
        'DEMO must be 1 or 0 (got "yes")',
        'DEMO_ORDERS must be a whole number from 0 to 20000 (got "2e3")',
        "FIRST_ADMIN_EMAIL must be an e-mail address when FIRST_ADMIN_PASSWORD is set",
        "FIRST_ADMIN_PASSWORD must be at least 6 characters when FIRST_ADMIN_EMAIL is set",
        "JWT_SECRET is required outside demo mode (at least 32 characters)",
        "INTAKE_TOKEN must be at least 24 characters",
      ]);
    }
  });

  describe("issue 9 item 11: TRUST_PROXY and METRICS_TOKEN", () => {
    it("TRUST_PROXY unset or empty trusts no proxy", () => {
      expect(readConfig({}).trustProxy).toBe(false);
      expect(readConfig({ TRUST_PROXY: "" }).trustProxy).toBe(false);
      expect(readConfig({ TRUST_PROXY: "  " }).trustProxy).toBe(false);
    });

    it("TRUST_PROXY takes a number of hops, or addresses, CIDR ranges and Express's names, comma-separated", () => {
      expect(readConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
      expect(readConfig({ TRUST_PROXY: "32" }).trustProxy).toBe(32);
      expect(readConfig({ TRUST_PROXY: "loopback" }).trustProxy).toEqual(["loopback"]);
      expect(readConfig({ TRUST_PROXY: "10.0.0.0/8, 192.168.1.7,fd00::/8, ::1, uniquelocal,linklocal" }).trustProxy).toEqual([
        "10.0.0.0/8",
        "192.168.1.7",
        "fd00::/8",
        "::1",
        "uniquelocal",
        "linklocal",
      ]);
    });

    it.each([
      ["true", "true"],
      ["0", "0"],
      ["33", "33"],
      ["10.0.0.0/33", "10.0.0.0/33"],
      ["fd00::/129", "fd00::/129"],
      ["10.0.0/8", "10.0.0/8"],
      ["proxy.example.com", "proxy.example.com"],
      ["loopback,,10.0.0.1", ""],
      ["10.0.0.0/8/1", "10.0.0.0/8/1"],
    ])("refuses TRUST_PROXY=%j, naming what it did not understand", (value, culprit) => {
      try {
        readConfig({ TRUST_PROXY: value });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        const [problem] = (error as ConfigError).problems;
        expect(problem).toMatch(/^TRUST_PROXY /);
        if (/^\d+$/.test(value)) expect(problem).toBe(`TRUST_PROXY as a number of proxies must be from 1 to 32 (got "${value}")`);
        else expect(problem).toContain(`"${culprit}"`);
      }
    });

    it("METRICS_TOKEN is optional, and when set at least 24 characters without spaces", () => {
      expect(readConfig({}).metricsToken).toBeUndefined();
      expect(readConfig({ METRICS_TOKEN: "m".repeat(24) }).metricsToken).toBe("m".repeat(24));
      for (const token of ["m".repeat(23), `${"m".repeat(24)} x`]) {
        expect(() => readConfig({ METRICS_TOKEN: token })).toThrow("METRICS_TOKEN must be at least 24 characters, without spaces");
      }
    });

    it("TLS is 1 or 0", () => {
      expect(readConfig({ TLS: "1" }).tls).toBe(true);
      expect(readConfig({ TLS: "0" }).tls).toBe(false);
      expect(() => readConfig({ TLS: "yes" })).toThrow('TLS must be 1 or 0 (got "yes")');
    });
  });
});
