import type { SealedSqlEventStore, SqlDriver } from "@etd/event-store";
import type { LocateIp } from "./http/ip-location.ts";
import type { EventMetadata, Role } from "@etd/events";
import type { Credentials } from "./auth/credentials.ts";
import type { SessionRevocations } from "./auth/sessions.ts";
import type { OrderGrants } from "./auth/order-grant.ts";
import type { Throttle } from "./auth/throttle.ts";
import type { ChallengeIssuer } from "./auth/two-factor-challenge.ts";
import type { SecretBox } from "./auth/two-factor.ts";
import type { SessionUser, TokenIssuer } from "./auth/tokens.ts";
import type { RateLimiter } from "./http/rate-limit.ts";
import type { MailWebhookSettings } from "./mail/delivery-reports/settings.ts";
import type { PdfRenderer } from "@etd/pdf";
import type { DocumentStorage } from "@etd/storage";

/**
 * The public pages' translation widget, a third-party script (PUBLIC-3): TRANSLATE_WIDGET_URL and
 * the origins it loads from besides its own (TRANSLATE_WIDGET_ORIGINS). Only when it is set do the
 * public pages name it, and only their Content-Security-Policy allows those origins.
 */
export interface TranslateWidget {
  readonly scriptUrl: string;
  readonly origins: readonly string[];
}

export type TrustProxy = false | number | readonly string[];

/** What the endpoints work with; `main.ts` builds the real ones, tests the same ones on a test database. */
export interface ApiDeps {
  /**
   * The event store with personal data encrypted per stream; `forget` destroys a stream's key,
   * `transaction` appends together with other writes to the same database (staff accounts).
   */
  readonly store: SealedSqlEventStore;
  readonly credentials: Credentials;
  /** The database holding the read models (the same one as the event store by default). */
  readonly readDb: SqlDriver;
  readonly tokens: TokenIssuer;
  /** Sessions ended by signing out; `authenticate` refuses them. */
  readonly sessions: SessionRevocations;
  readonly throttle: Throttle;
  /** Two-factor sign-in (issue 16): the stored secrets' key, and the challenges between password and code. */
  readonly twoFactor: { readonly box: SecretBox; readonly challenges: ChallengeIssuer };
  /**
   * REQUIRE_2FA_FOR: roles whose members must use two-factor sign-in. The guard compares it with
   * the credentials on every request, so enrolment or a reset counts at once.
   */
  readonly requireTwoFactorFor: ReadonlySet<Role>;
  /** Failed public order lookups, per order id and per address. */
  readonly trackThrottle: Throttle;
  /** Signs and checks the travellers' order grants (public side, ADR 0007). */
  readonly grants: OrderGrants;
  /** Every public request, per endpoint and address (`http/rate-limit.ts`). */
  readonly publicLimiter: RateLimiter;
  /** The country of an address, offline (DB-IP Lite): a download's "Device Location" (PUBLIC-2). */
  readonly locateIp: LocateIp;
  readonly storage: DocumentStorage;
  /** HTML to PDF (defence packs); one Chromium, started on the first render. */
  readonly pdf: PdfRenderer;
  /** The customer-facing site's token for intake; intake is closed when unset. */
  readonly serviceToken: string | undefined;
  readonly maxUploadBytes: number;
  readonly now: () => Date;
  /** Served behind TLS (`TLS=1`): cookies are Secure and answers carry HSTS. */
  readonly secureCookies: boolean;
  /** The providers' delivery-report webhooks (ADR 0019); absent or unset, they answer 404. */
  readonly mailWebhooks?: MailWebhookSettings | undefined;
}

/** What a process's HTTP app is made with: the endpoints' dependencies and the process's own settings (app.ts, probes.ts). */
export interface AppDeps extends ApiDeps {
  /** Which adapter the event store runs on, for operators. */
  readonly eventStoreKind: "postgres" | "pglite" | "kurrentdb";
  /** Whose X-Forwarded-For sets the client's address (TRUST_PROXY); no one's when absent. */
  readonly trustProxy?: TrustProxy;
  /** Lets /metrics answer off the host with `Authorization: Bearer <token>` (METRICS_TOKEN). */
  readonly metricsToken?: string | undefined;
  /** The public pages' translation widget (TRANSLATE_WIDGET_URL); none when absent. */
  readonly translateWidget?: TranslateWidget | undefined;
}

/**
 * Who is asking, as commands need it: the request without its HTTP details. No `user` for the
 * traveller's pages and the customer-facing site. Declared here, not taken from the endpoint
 * layer's types, so that this module depends on nothing that depends on it.
 */
export interface Caller {
  readonly user?: SessionUser | undefined;
  /** Correlates every event this request leads to. */
  readonly requestId: string;
  readonly ip: string;
}

/** Who did it and in which request: the metadata every event of this request carries. */
export const requestMetadata = (context: Caller, system?: string): Omit<EventMetadata, "occurredAt"> =>
  system
    ? { actor: { kind: "system", name: system }, correlationId: context.requestId }
    : context.user
    ? {
        actor: { kind: "staff", id: context.user.id, name: context.user.name, role: context.user.type },
        correlationId: context.requestId,
        ...(isIp(context.ip) ? { requestIp: context.ip } : {}),
      }
    : { actor: { kind: "customer" }, correlationId: context.requestId };

const isIp = (value: string) => /^[0-9A-Fa-f:.]{2,45}$/.test(value);

