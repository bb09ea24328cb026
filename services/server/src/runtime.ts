import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { openPgliteDriver, openPostgresDriver, openSealedSqlEventStore, startSealer, type SqlDriver } from "@etd/event-store";
import { ALL_PROJECTIONS, startProjector, type Projector } from "@etd/projections";
import type { AppDeps } from "./api-deps.ts";
import { createCredentials } from "./auth/credentials.ts";
import { createOrderGrants } from "./auth/order-grant.ts";
import { createSessionRevocations } from "./auth/sessions.ts";
import { createThrottle } from "./auth/throttle.ts";
import { createTokenIssuer } from "./auth/tokens.ts";
import { createChallengeIssuer } from "./auth/two-factor-challenge.ts";
import { createSecretBox } from "./auth/two-factor.ts";
import type { Role as StaffRole } from "@etd/events";
import { DEFAULT_MAILING, type Config, type MailingSettings, type TranslateWidget, type TrustProxy } from "./config.ts";
import { openIpLocation } from "./http/ip-location.ts";
import { createRateLimiter, PUBLIC_RATE_LIMIT } from "./http/rate-limit.ts";
import { createChromiumRenderer } from "./pdf/chromium-renderer.ts";
import { erasureReactor } from "./reactors/erasure.ts";
import { createMailReactor, startMailSchedule } from "./mail/mail-reactor.ts";
import { mailerFor, type MailSettings } from "@etd/mail";
import { DEFAULT_MAIL_FROM } from "@etd/mail/settings";
import { renderInvoicePdf } from "./pdf/invoice.ts";
import { startReactor, type RunningReactor } from "./reactors/reactor.ts";
import { createRelay, ORDERS_V1_PARTITIONS } from "./relay/relay.ts";
import { ORDERS_V1 } from "./relay/orders-v1.ts";
import type { KafkaSettings } from "@etd/kafka";
import { createLocalDiskStorage } from "./storage/local-disk-storage.ts";
import { mailWebhookSettings, type MailWebhookConfig } from "./mail/delivery-reports/settings.ts";

/*
 * The composition root: one database driver shared by the event store, the key table and the
 * credentials (PGlite allows one opener per data directory), wrapped into the deps every endpoint
 * receives. `main.ts` and the tests both build the API through it.
 */

export interface Runtime {
  readonly deps: AppDeps;
  readonly driver: SqlDriver;
  /** Runs every projection in this process (npm start, tests); production runs them apart. */
  startProjectors(): Promise<Projector>;
  /** Runs the reactors (erasure, mail, the chain's sealer) in this process: side effects that follow the log. */
  startReactors(): Promise<readonly Stoppable[]>;
  /** Runs the Kafka relay in this process (KAFKA_BROKERS). */
  startRelay(kafka: KafkaSettings): Promise<RunningReactor>;
  close(): Promise<void>;
}

export interface Stoppable {
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  readonly jwtSecret: string;
  readonly sessionTtlSeconds: number;
  /** REQUIRE_2FA_FOR: roles that must use two-factor sign-in (none when absent). */
  readonly requireTwoFactorFor?: ReadonlySet<StaffRole>;
  readonly intakeToken: string | undefined;
  readonly maxUploadBytes: number;
  readonly maxConnections?: number;
  /** Behind TLS: Secure cookies and HSTS. */
  readonly tls?: boolean;
  /** How long a projection lease lasts without renewal (default 15 s). */
  readonly projectionLeaseMs?: number;
  /** Whose X-Forwarded-For is believed (TRUST_PROXY); none when absent. */
  readonly trustProxy?: TrustProxy;
  /** Bearer token for /metrics from off the host (METRICS_TOKEN). */
  readonly metricsToken?: string | undefined;
  /** The public pages' translation widget (TRANSLATE_WIDGET_URL, TRANSLATE_WIDGET_ORIGINS). */
  readonly translateWidget?: TranslateWidget | undefined;
  /** SES_SNS_TOPIC_ARN and SENDGRID_WEBHOOK_PUBLIC_KEY: the delivery-report webhooks, off while unset. */
  readonly mailWebhooks?: Partial<MailWebhookConfig>;
  /** The providers' settings; without them both labels write to DATA_DIR/outbox. */
  readonly mail?: Partial<MailSettings>;
  readonly mailing?: Partial<MailingSettings>;
  /** How long a reactor's lease lasts without renewal (default 15 s). */
  readonly reactorLeaseMs?: number;
  /** How often the mail schedule (retries, reminders) is read (default 15 s). */
  readonly mailSchedulePollMs?: number;
  readonly now?: () => Date;
}

export const openRuntime = async (options: RuntimeOptions): Promise<Runtime> => {
  const driver = options.databaseUrl
    ? await openPostgresDriver({ connectionString: options.databaseUrl, maxConnections: options.maxConnections ?? 20 })
    : await openEmbedded(options.dataDir);
  try {
    const store = await openSealedSqlEventStore(driver);
    const credentials = await createCredentials(driver);
    const deps: AppDeps = {
      store,
      credentials,
      readDb: driver,
      tokens: createTokenIssuer(options.jwtSecret, options.sessionTtlSeconds),
      sessions: await createSessionRevocations(driver),
      throttle: createThrottle(),
      twoFactor: { box: createSecretBox(options.jwtSecret), challenges: createChallengeIssuer(options.jwtSecret) },
      requireTwoFactorFor: options.requireTwoFactorFor ?? new Set(),
      trackThrottle: createThrottle({ perSubjectIp: 10, perIp: 30, windowMs: 15 * 60_000 }),
      grants: createOrderGrants(options.jwtSecret),
      publicLimiter: createRateLimiter(PUBLIC_RATE_LIMIT),
      locateIp: openIpLocation(),
      storage: await createLocalDiskStorage({ root: path.join(options.dataDir, "uploads") }),
      pdf: createChromiumRenderer(),
      serviceToken: options.intakeToken,
      maxUploadBytes: options.maxUploadBytes,
      now: options.now ?? (() => new Date()),
      secureCookies: options.tls ?? false,
      trustProxy: options.trustProxy ?? false,
      metricsToken: options.metricsToken,
      translateWidget: options.translateWidget,
      mailWebhooks: mailWebhookSettings(options.mailWebhooks),
      eventStoreKind: options.databaseUrl ? "postgres" : "pglite",
    };
    const mailSettings: MailSettings = { from: DEFAULT_MAIL_FROM, ses: undefined, sendgrid: undefined, outboxDir: path.join(options.dataDir, "outbox"), ...options.mail };
    const mailing: MailingSettings = { ...DEFAULT_MAILING, ...options.mailing };
    const host = { driver, store, ...(options.reactorLeaseMs ? { leaseMs: options.reactorLeaseMs } : {}) };
    const startAllReactors = async (): Promise<readonly Stoppable[]> => {
      const erasure = await startReactor(host, erasureReactor({ forget: (streamId) => store.forget(streamId), storage: deps.storage, readStream: (streamId) => store.readStream(streamId), outboxDir: mailSettings.outboxDir }));
      const mail = await createMailReactor({
        store,
        driver,
        mailers: { AWS: mailerFor("AWS", mailSettings).mailer, Sendgrid: mailerFor("Sendgrid", mailSettings).mailer },
        from: mailSettings.from,
        publicUrl: mailing.publicUrl,
        retryDelaysMs: mailing.retryDelaysMs,
        reminderAfterMs: mailing.reminderAfterMs,
        invoicePdf: (history, invoice) => renderInvoicePdf(deps.pdf, history, invoice),
        now: deps.now,
      });
      const following = await startReactor(host, mail);
      const schedule = startMailSchedule(mail, options.mailSchedulePollMs ?? 15_000, following);
      // The global hash chain follows the log too (ADR 0021).
      const sealer = startSealer(driver, { onError: (error) => console.error("[sealer]", error) });
      return [erasure, following, schedule, sealer];
    };
    let projector: Projector | undefined;
    let reactors: Promise<readonly Stoppable[]> | undefined;
    let relay: Promise<RunningReactor> | undefined;
    const startRelayOnce = async (kafka: KafkaSettings): Promise<RunningReactor> => {
      // Loaded only where the relay runs: other processes never open the Kafka client.
      const { createKafkaPublisher } = await import("@etd/kafka");
      const publisher = createKafkaPublisher(kafka);
      try {
        await publisher.ensureTopic(ORDERS_V1, ORDERS_V1_PARTITIONS);
        const running = await startReactor(host, createRelay(publisher));
        return {
          holdsLease: () => running.holdsLease(),
          stop: async () => {
            await running.stop();
            await publisher.close();
          },
        };
      } catch (error) {
        await publisher.close().catch(() => undefined);
        throw error;
      }
    };
    return {
      deps,
      driver,
      startProjectors: async () => {
        projector ??= await startProjector({ driver, store, projections: ALL_PROJECTIONS, ...(options.projectionLeaseMs ? { leaseMs: options.projectionLeaseMs } : {}), onEvent: (message) => console.log(`[projections] ${message}`) });
        return projector;
      },
      startReactors: () => (reactors ??= startAllReactors()),
      startRelay: (kafka) => (relay ??= startRelayOnce(kafka)),
      close: async () => {
        await Promise.all((await reactors?.catch(() => []))?.map((reactor) => reactor.stop()) ?? []);
        await (await relay?.catch(() => undefined))?.stop();
        await projector?.stop();
        await deps.pdf.close();
        await store.close();
        await driver.close();
      },
    };
  } catch (error) {
    await driver.close().catch(() => undefined);
    throw error;
  }
};

const openEmbedded = async (dataDir: string) => {
  const dir = path.join(dataDir, "pglite");
  await mkdir(dir, { recursive: true });
  return openPgliteDriver(dir);
};

/** JWT_SECRET, or in demo mode one generated on first start and kept beside the data. */
export const sessionSecret = async (config: Config): Promise<string> => {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, "session-secret");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    const secret = randomBytes(48).toString("base64url");
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, secret, { mode: 0o600 });
    return secret;
  }
};
