import { hkdfSync } from "node:crypto";
import type { SealedSqlEventStore, SqlDriver } from "@etd/event-store";
import type { Role } from "@etd/events";
import type { PdfRenderer } from "@etd/pdf";
import type { DocumentStorage } from "@etd/storage";
import type { AppDeps, TranslateWidget, TrustProxy } from "./api-deps.ts";
import { createCredentials } from "./auth/credentials.ts";
import { createOrderGrants } from "./auth/order-grant.ts";
import { createSessionRevocations } from "./auth/sessions.ts";
import { createSharedThrottle } from "./auth/shared-throttle.ts";
import { createThrottle, type ThrottleLimits } from "./auth/throttle.ts";
import { createTokenIssuer } from "./auth/tokens.ts";
import { createChallengeIssuer } from "./auth/two-factor-challenge.ts";
import { createSecretBox } from "./auth/two-factor.ts";
import { openIpLocation } from "./http/ip-location.ts";
import { createRateLimiter, PUBLIC_RATE_LIMIT } from "./http/rate-limit.ts";
import { mailWebhookSettings, type MailWebhookConfig } from "./mail/delivery-reports/settings.ts";

/** The API role's own settings; the process (services/server) reads them from the environment. */
export interface ApiOptions {
  readonly jwtSecret: string;
  readonly sessionTtlSeconds: number;
  /** REQUIRE_2FA_FOR: roles that must use two-factor sign-in (none when absent). */
  readonly requireTwoFactorFor?: ReadonlySet<Role>;
  readonly intakeToken: string | undefined;
  readonly maxUploadBytes: number;
  /** Behind TLS: Secure cookies and HSTS. */
  readonly tls?: boolean;
  /** Whose X-Forwarded-For is believed (TRUST_PROXY); none when absent. */
  readonly trustProxy?: TrustProxy;
  /** Bearer token for /metrics from off the host (METRICS_TOKEN). */
  readonly metricsToken?: string | undefined;
  /** The public pages' translation widget (TRANSLATE_WIDGET_URL, TRANSLATE_WIDGET_ORIGINS). */
  readonly translateWidget?: TranslateWidget | undefined;
  /** SES_SNS_TOPIC_ARN and SENDGRID_WEBHOOK_PUBLIC_KEY: the delivery-report webhooks, off while unset. */
  readonly mailWebhooks?: Partial<MailWebhookConfig>;
  readonly now?: () => Date;
}

/** What the process shares with the API: one database, its event store, the documents' storage and the PDF renderer. */
export interface ProcessResources {
  readonly driver: SqlDriver;
  readonly store: SealedSqlEventStore;
  readonly storage: DocumentStorage;
  readonly pdf: PdfRenderer;
  readonly eventStoreKind: AppDeps["eventStoreKind"];
}

/** The public order lookup's own limits (issue 9 item 4). */
const TRACK_LIMITS: Partial<ThrottleLimits> = { perSubjectIp: 10, perIp: 30, windowMs: 15 * 60_000 };

/**
 * On PostgreSQL every API process shares the throttles' counts (ADR 0040); the embedded database
 * is one process's own, so its counts stay in that process's memory.
 */
const throttleFor = (driver: SqlDriver, eventStoreKind: AppDeps["eventStoreKind"], jwtSecret: string, name: string, limits: Partial<ThrottleLimits> = {}) =>
  eventStoreKind === "pglite"
    ? Promise.resolve(createThrottle(limits))
    : createSharedThrottle(driver, { name, subjectKey: Buffer.from(hkdfSync("sha256", jwtSecret, Buffer.alloc(0), "etd throttle subject v1", 32)) }, limits);

/** The API's dependencies on the process's database: its tables (credentials, sessions, throttles) are made here. */
export const createAppDeps = async ({ driver, store, storage, pdf, eventStoreKind }: ProcessResources, options: ApiOptions): Promise<AppDeps> => ({
  store,
  credentials: await createCredentials(driver),
  readDb: driver,
  tokens: createTokenIssuer(options.jwtSecret, options.sessionTtlSeconds),
  sessions: await createSessionRevocations(driver),
  throttle: await throttleFor(driver, eventStoreKind, options.jwtSecret, "sign-in"),
  twoFactor: { box: createSecretBox(options.jwtSecret), challenges: createChallengeIssuer(options.jwtSecret) },
  requireTwoFactorFor: options.requireTwoFactorFor ?? new Set(),
  trackThrottle: await throttleFor(driver, eventStoreKind, options.jwtSecret, "track-order", TRACK_LIMITS),
  grants: createOrderGrants(options.jwtSecret),
  publicLimiter: createRateLimiter(PUBLIC_RATE_LIMIT),
  locateIp: openIpLocation(),
  storage,
  pdf,
  serviceToken: options.intakeToken,
  maxUploadBytes: options.maxUploadBytes,
  now: options.now ?? (() => new Date()),
  secureCookies: options.tls ?? false,
  trustProxy: options.trustProxy ?? false,
  metricsToken: options.metricsToken,
  translateWidget: options.translateWidget,
  mailWebhooks: mailWebhookSettings(options.mailWebhooks),
  eventStoreKind,
});
