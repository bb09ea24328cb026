import { isIP } from "node:net";
import path from "node:path";
// The settings entry only: reading the environment should not load the providers' SDKs.
import { mailSettingsFrom, type MailSettings } from "@etd/mail/settings";
import { readMailWebhookConfig, type MailWebhookConfig, type TranslateWidget, type TrustProxy } from "@etd/api";
import { DEFAULT_MAILING, type MailingSettings } from "@etd/reactors";
import { ROLES as STAFF_ROLES, type Role as StaffRole } from "@etd/events";
import { isEmailAddress } from "@etd/events/email-address";
// The type only: reading the environment should not load the Kafka client.
import type { KafkaSettings } from "@etd/kafka";
import { readProjectionLease } from "@etd/projections";

/** Settings read from the environment once at start. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** Where the embedded database and uploads live when no DATABASE_URL is given. */
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** Demo staff, gateways and about 2,000 orders on first start; on by default on the embedded database. */
  readonly demo: boolean;
  /** The demo staff's password; generated and printed on first start when unset. */
  readonly demoPassword: string | undefined;
  /** How many demo orders the first start seeds (DEMO_ORDERS, default 2,000). */
  readonly demoOrders: number;
  /** Outside demo mode, the first admin created when no account exists yet. */
  readonly firstAdmin: { readonly email: string; readonly password: string; readonly name: string } | undefined;
  /** Signs session tokens; generated and kept in DATA_DIR in demo mode when unset. */
  readonly jwtSecret: string | undefined;
  readonly sessionTtlSeconds: number;
  /**
   * REQUIRE_2FA_FOR: staff roles that must use two-factor sign-in (issue 16), e.g. "Admin,Manager";
   * none by default. Their members can reach only their own two-factor page until they set it up.
   */
  readonly requireTwoFactorFor: ReadonlySet<StaffRole>;
  /** The customer-facing site's intake token; intake is closed when unset. */
  readonly intakeToken: string | undefined;
  /** Largest accepted upload. */
  readonly maxUploadBytes: number;
  /** Served to browsers over HTTPS (a TLS proxy in front): HSTS on every answer, Secure cookies. */
  readonly tls: boolean;
  /**
   * Which proxies' X-Forwarded-For is believed, as Express's "trust proxy" takes it: a number of
   * hops, or addresses and CIDR ranges (and the names loopback, linklocal, uniquelocal). False
   * (the default) believes none: the client is the connection's address.
   */
  readonly trustProxy: TrustProxy;
  /** Lets a scraper that is not on loopback read /metrics with `Authorization: Bearer <token>`. */
  readonly metricsToken: string | undefined;
  /**
   * How long a projector's lease on a read model lasts without renewal: after a crash, the time
   * before another process takes the read model over.
   */
  readonly projectionLeaseMs: number;
  /** The sender, the SES and SendGrid credentials, the outbox folder (@etd/mail, ADR 0016). */
  readonly mail: MailSettings;
  /** How the mail reactor works (ADR 0017). */
  readonly mailing: MailingSettings;
  /** The delivery-report webhooks' SES_SNS_TOPIC_ARN and SENDGRID_WEBHOOK_PUBLIC_KEY (ADR 0019); each off while unset. */
  readonly mailWebhooks: MailWebhookConfig;
  /** The public pages' translation widget: TRANSLATE_WIDGET_URL and TRANSLATE_WIDGET_ORIGINS; none while unset. */
  readonly translateWidget: TranslateWidget | undefined;
  /** What this process runs (RUN); every role by default, the relay only when Kafka is configured. */
  readonly roles: ReadonlySet<Role>;
  /** How long a reactor's lease (mail, erasure, relay) lasts without renewal: the wait before a standby process takes over. */
  readonly reactorLeaseMs: number;
  /**
   * DATABASE_MAX_CONNECTIONS: the most PostgreSQL connections this process opens. By default 20
   * with the API, 8 without it: several processes share the server's limit (100 by default).
   */
  readonly maxConnections: number;
  /** KAFKA_BROKERS: where the relay publishes `orders.v1`; the relay is off while unset. */
  readonly kafka: KafkaSettings | undefined;
}

/**
 * The parts of the product a process runs (RUN, DESIGN §9): `api` answers HTTP, `projector` keeps
 * the read models, `reactors` carries out mail, erasure and the hash chain's seal, `relay` publishes
 * to Kafka. Any of them may run in several processes at once on one PostgreSQL (ADR 0023).
 */
export const ROLES = ["api", "projector", "reactors", "relay"] as const;
export type Role = (typeof ROLES)[number];




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

  const demoText = env.DEMO ?? (databaseUrl ? "0" : "1");
  if (!/^[01]$/.test(demoText)) problems.push(`DEMO must be 1 or 0 (got "${demoText}")`);
  const demo = demoText === "1";

  const demoPassword = env.DEMO_PASSWORD || undefined;
  if (demoPassword !== undefined && demoPassword.length < 6) problems.push("DEMO_PASSWORD must be at least 6 characters");

  const demoOrdersText = env.DEMO_ORDERS ?? "2000";
  const demoOrders = Number(demoOrdersText);
  if (!/^\d{1,5}$/.test(demoOrdersText) || demoOrders > 20_000) problems.push(`DEMO_ORDERS must be a whole number from 0 to 20000 (got "${demoOrdersText}")`);

  let firstAdmin: Config["firstAdmin"];
  if (env.FIRST_ADMIN_EMAIL || env.FIRST_ADMIN_PASSWORD) {
    if (!env.FIRST_ADMIN_EMAIL || !isEmailAddress(env.FIRST_ADMIN_EMAIL)) {
      problems.push("FIRST_ADMIN_EMAIL must be an e-mail address when FIRST_ADMIN_PASSWORD is set");
    }
    if (!env.FIRST_ADMIN_PASSWORD || env.FIRST_ADMIN_PASSWORD.length < 6) {
      problems.push("FIRST_ADMIN_PASSWORD must be at least 6 characters when FIRST_ADMIN_EMAIL is set");
    }
    firstAdmin = { email: env.FIRST_ADMIN_EMAIL ?? "", password: env.FIRST_ADMIN_PASSWORD ?? "", name: env.FIRST_ADMIN_NAME || "Administrator" };
  }

  const jwtSecret = env.JWT_SECRET || undefined;
  if (jwtSecret !== undefined && jwtSecret.length < 32) problems.push("JWT_SECRET must be at least 32 characters");
  if (jwtSecret === undefined && !demo) problems.push("JWT_SECRET is required outside demo mode (at least 32 characters)");

  const ttlText = env.SESSION_TTL_SECONDS ?? "43200";
  const sessionTtlSeconds = Number(ttlText);
  if (!/^\d+$/.test(ttlText) || sessionTtlSeconds < 60) problems.push(`SESSION_TTL_SECONDS must be a whole number of at least 60 (got "${ttlText}")`);

  const requireTwoFactorFor = readRequiredTwoFactor(env.REQUIRE_2FA_FOR, problems);

  const intakeToken = env.INTAKE_TOKEN || undefined;
  if (intakeToken !== undefined && intakeToken.length < 24) problems.push("INTAKE_TOKEN must be at least 24 characters");

  const uploadText = env.MAX_UPLOAD_MB ?? "10";
  const maxUploadMb = Number(uploadText);
  if (!/^\d+$/.test(uploadText) || maxUploadMb < 1 || maxUploadMb > 100) problems.push(`MAX_UPLOAD_MB must be a whole number from 1 to 100 (got "${uploadText}")`);

  const tlsText = env.TLS ?? "0";
  if (!/^[01]$/.test(tlsText)) problems.push(`TLS must be 1 or 0 (got "${tlsText}")`);

  const trustProxy = readTrustProxy(env.TRUST_PROXY, problems);

  const lease = readProjectionLease(env.PROJECTION_LEASE_SECONDS);
  if ("problem" in lease) problems.push(lease.problem);

  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && (metricsToken.length < 24 || /\s/.test(metricsToken))) {
    problems.push("METRICS_TOKEN must be at least 24 characters, without spaces");
  }

  const dataDir = path.resolve(env.DATA_DIR || "./data");
  const mail = mailSettingsFrom(env, dataDir);
  problems.push(...mail.problems);
  const mailing = readMailing(env, Number.isInteger(port) ? port : 3000, problems);
  const mailWebhooks = readMailWebhookConfig(env, problems);
  const translateWidget = readTranslateWidget(env, problems);
  const kafka = readKafka(env, problems);
  const roles = readRoles(env.RUN, { kafka: kafka !== undefined, databaseUrl: databaseUrl !== undefined }, problems);

  const reactorLeaseText = env.REACTOR_LEASE_SECONDS ?? "15";
  const reactorLeaseSeconds = Number(reactorLeaseText);
  if (!/^\d+$/.test(reactorLeaseText) || reactorLeaseSeconds < 1 || reactorLeaseSeconds > 600) problems.push(`REACTOR_LEASE_SECONDS must be a whole number from 1 to 600 (got "${reactorLeaseText}")`);

  const poolText = env.DATABASE_MAX_CONNECTIONS ?? (roles.has("api") ? "20" : "8");
  const maxConnections = Number(poolText);
  if (!/^\d+$/.test(poolText) || maxConnections < 2 || maxConnections > 500) problems.push(`DATABASE_MAX_CONNECTIONS must be a whole number from 2 to 500 (got "${poolText}")`);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host: env.HOST || "127.0.0.1",
    dataDir,
    databaseUrl,
    demo,
    demoPassword,
    demoOrders,
    firstAdmin,
    jwtSecret,
    sessionTtlSeconds,
    requireTwoFactorFor,
    intakeToken,
    maxUploadBytes: maxUploadMb * 1024 * 1024,
    tls: tlsText === "1",
    trustProxy,
    metricsToken,
    projectionLeaseMs: "ms" in lease ? lease.ms : 15_000,
    mail: mail.settings,
    mailing,
    mailWebhooks,
    translateWidget,
    roles,
    reactorLeaseMs: reactorLeaseSeconds * 1000,
    maxConnections,
    kafka,
  };
};

/** RUN: a comma-separated list of roles; unset runs them all (the relay only with KAFKA_BROKERS). */
const readRoles = (text: string | undefined, given: { kafka: boolean; databaseUrl: boolean }, problems: string[]): ReadonlySet<Role> => {
  const value = text?.trim();
  const everything = ROLES.filter((role) => role !== "relay" || given.kafka);
  if (!value) return new Set(everything);
  const named = value.split(",").map((part) => part.trim());
  const unknown = named.filter((part) => !(ROLES as readonly string[]).includes(part));
  if (unknown.length > 0) {
    problems.push(`RUN must list roles from ${ROLES.join(", ")}, separated by commas (not understood: ${unknown.map((u) => `"${u}"`).join(", ")})`);
    return new Set();
  }
  const roles = new Set(named as Role[]);
  if (roles.has("relay") && !given.kafka) problems.push("RUN names the relay, which needs KAFKA_BROKERS");
  // The embedded database opens in one process only, and the others would wait on it for ever.
  if (!everything.every((role) => roles.has(role)) && !given.databaseUrl) problems.push("RUN with only some roles needs DATABASE_URL: the embedded database can be opened by one process only");
  return roles;
};

/** REQUIRE_2FA_FOR: staff roles separated by commas, spelt as on Manage Team; an unknown one stops the start. */
const readRequiredTwoFactor = (text: string | undefined, problems: string[]): ReadonlySet<StaffRole> => {
  const named = (text ?? "").split(",").map((part) => part.trim()).filter((part) => part !== "");
  // A misspelt role would otherwise leave that role without the second factor the operator asked for.
  const unknown = named.filter((part) => !(STAFF_ROLES as readonly string[]).includes(part));
  if (unknown.length > 0) {
    problems.push(`REQUIRE_2FA_FOR must list staff roles from ${STAFF_ROLES.join(", ")}, separated by commas (not understood: ${unknown.map((u) => `"${u}"`).join(", ")})`);
    return new Set();
  }
  return new Set(named as StaffRole[]);
};

/** KAFKA_BROKERS (host:port, separated by commas) and KAFKA_CLIENT_ID. */
const readKafka = (env: NodeJS.ProcessEnv, problems: string[]): KafkaSettings | undefined => {
  const text = env.KAFKA_BROKERS?.trim();
  const clientId = env.KAFKA_CLIENT_ID?.trim() || "etd-relay";
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(clientId)) problems.push(`KAFKA_CLIENT_ID must be letters, digits, dots, dashes or underscores (got "${clientId}")`);
  if (!text) return undefined;
  const brokers = text.split(",").map((part) => part.trim());
  const wrong = brokers.filter((broker) => !/^[A-Za-z0-9.-]+:\d{1,5}$/.test(broker) && !/^\[[0-9a-fA-F:]+\]:\d{1,5}$/.test(broker));
  if (wrong.length > 0) {
    problems.push(`KAFKA_BROKERS must list host:port addresses separated by commas (not understood: ${wrong.map((w) => `"${w}"`).join(", ")})`);
    return undefined;
  }
  return { brokers, clientId };
};

/**
 * An origin a browser may load from: https, or http on this machine (a test's or a developer's
 * widget). A path, credentials or a wildcard would widen the policy beyond what was meant.
 */
const isWidgetOrigin = (url: URL) =>
  // A host name of letters, digits, dots and dashes only: "*" would be a wildcard in the policy.
  (/^[a-z0-9.-]+$/i.test(url.hostname) || url.hostname === "[::1]") &&
  (url.protocol === "https:" || (url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)));

const readTranslateWidget = (env: NodeJS.ProcessEnv, problems: string[]): TranslateWidget | undefined => {
  const scriptUrl = env.TRANSLATE_WIDGET_URL?.trim();
  const originsText = env.TRANSLATE_WIDGET_ORIGINS?.trim() ?? "";
  if (!scriptUrl) {
    if (originsText !== "") problems.push("TRANSLATE_WIDGET_ORIGINS needs TRANSLATE_WIDGET_URL");
    return undefined;
  }
  const parse = (text: string) => {
    try {
      return new URL(text);
    } catch {
      return undefined;
    }
  };
  const script = parse(scriptUrl);
  if (script === undefined || !isWidgetOrigin(script) || script.username !== "" || script.password !== "") {
    problems.push(`TRANSLATE_WIDGET_URL must be an https:// address of a script (got "${scriptUrl}")`);
    return undefined;
  }
  const origins: string[] = [];
  for (const text of originsText.split(",").map((part) => part.trim()).filter((part) => part !== "")) {
    const url = parse(text);
    if (url === undefined || !isWidgetOrigin(url) || url.origin !== text.replace(/\/$/, "")) {
      problems.push(`TRANSLATE_WIDGET_ORIGINS must list origins such as https://translate.example, separated by commas (got "${text}")`);
    } else {
      origins.push(url.origin);
    }
  }
  return { scriptUrl: script.href, origins };
};


/** PUBLIC_URL, REMINDER_AFTER_HOURS and MAIL_RETRY_SECONDS. */
const readMailing = (env: NodeJS.ProcessEnv, port: number, problems: string[]): MailingSettings => {
  const publicUrl = (env.PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/(?<!\/)\/+$/, "");
  try {
    if (!["http:", "https:"].includes(new URL(publicUrl).protocol)) throw new Error("not http");
  } catch {
    problems.push(`PUBLIC_URL must be an http:// or https:// address (got "${publicUrl}")`);
  }
  const hoursText = env.REMINDER_AFTER_HOURS ?? String(DEFAULT_MAILING.reminderAfterMs / 3_600_000);
  const hours = Number(hoursText);
  if (!/^\d+(\.\d+)?$/.test(hoursText) || hours <= 0 || hours > 720) {
    problems.push(`REMINDER_AFTER_HOURS must be a number of hours above 0 and at most 720 (got "${hoursText}")`);
  }
  const retryText = env.MAIL_RETRY_SECONDS ?? DEFAULT_MAILING.retryDelaysMs.map((ms) => ms / 1000).join(",");
  const retries = retryText.split(",").map((part) => part.trim());
  if (!retries.every((part) => /^\d+(\.\d+)?$/.test(part) && Number(part) > 0) || retries.length > 10) {
    problems.push(`MAIL_RETRY_SECONDS must be up to 10 waits in seconds, separated by commas (got "${retryText}")`);
  }
  return { publicUrl, reminderAfterMs: Math.round(hours * 3_600_000), retryDelaysMs: retries.map((part) => Math.round(Number(part) * 1000)) };
};

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY: unset or empty trusts no proxy; a whole number from 1 to 32 trusts that many hops;
 * otherwise a comma-separated list of IP addresses, CIDR ranges and the names above. "true" (any
 * sender) is refused on purpose: it would let every client choose its own address.
 */
const readTrustProxy = (text: string | undefined, problems: string[]): TrustProxy => {
  const value = text?.trim();
  if (!value) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= 32) return hops;
    problems.push(`TRUST_PROXY as a number of proxies must be from 1 to 32 (got "${value}")`);
    return false;
  }
  const entries = value.split(",").map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !PROXY_NAMES.has(entry) && !isAddressOrRange(entry));
  if (wrong.length > 0) {
    problems.push(
      `TRUST_PROXY must be a number of proxies, or addresses, CIDR ranges, loopback, linklocal or uniquelocal separated by commas (not understood: ${wrong.map((w) => `"${w}"`).join(", ")})`,
    );
    return false;
  }
  return entries;
};

const isAddressOrRange = (entry: string): boolean => {
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
};
