import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type express from "express";
import type { Schema } from "effect";
import type { Credentials } from "../auth/credentials.ts";
import { isAllowed, type Action } from "../auth/permissions.ts";
import type { SessionRevocations } from "../auth/sessions.ts";
import { tokenFromHeader, type SessionUser, type TokenIssuer } from "../auth/tokens.ts";
import { clearCookie, setCookie } from "./cookies.ts";
import { holdsOnlyUsableText, UNUSABLE_TEXT } from "./clean-text.ts";
import { fail, type Reply } from "./reply.ts";
import { parsePosition, type GlobalPosition } from "@etd/event-store";
import type { RequestMetrics } from "../metrics.ts";

/*
 * One table of endpoints, each naming its guard, so that the server checks every call the same
 * way and tests can walk the whole table (R6). A guard is a permission action (a signed-in staff
 * member whose role the matrix allows), "public" (the traveller's pages) or "service" (the
 * customer-facing site's intake, with its own token).
 */

export type Guard = Action | "public" | "service";

/** The read models a query can read (the projections' names). */
export type ProjectionName = "queue" | "order_details" | "reports" | "team" | "gateways";

export interface RequestContext {
  readonly req: express.Request;
  /** The signed-in staff member; present for every guard except "public" and "service". */
  readonly user: SessionUser | undefined;
  /** Correlates every event this request leads to. */
  readonly requestId: string;
  readonly ip: string;
}

export interface Endpoint {
  readonly method: "get" | "post" | "put";
  /** Under /api, exactly as the specs write it. */
  readonly path: string;
  readonly guard: Guard;
  readonly summary: string;
  /** The request body's schema, for the OpenAPI document; the handler decodes with it. */
  readonly body?: Schema.Top;
  readonly handle: (context: RequestContext) => Promise<Reply>;
  /** A POST that only reads (the specs send some searches and reports as POST); never appends. */
  readonly readOnly?: boolean;
  /**
   * The read models a query reads: a request with `X-Read-After` waits for these only (none when
   * empty). Absent (commands, sign-in, …): it waits for every read model, as before.
   */
  readonly reads?: readonly ProjectionName[];
  /** Extra per-request permission rules that depend on the payload (e.g. soft versus permanent delete). */
}

export interface GuardDeps {
  readonly tokens: TokenIssuer;
  readonly credentials: Credentials;
  /** Sessions ended by signing out (issue 9 item 7). */
  readonly sessions: SessionRevocations;
  readonly serviceToken: string | undefined;
}

export interface MountDeps extends GuardDeps {
  /** Read-your-writes: waits until these read models (every one when absent) have applied a position. */
  readonly waitForReadModels: (position: GlobalPosition, projections?: readonly ProjectionName[]) => Promise<boolean>;
  readonly metrics: RequestMetrics;
  /** Cookies carry `Secure` (served behind TLS). */
  readonly secureCookies: boolean;
}

export const UNAUTHORIZED = "Your session has expired or is not valid. Please sign in again.";
export const FORBIDDEN = "You do not have permission to do this.";

const send = (res: express.Response, reply: Reply, secureCookies: boolean) => {
  for (const cookie of reply.cookies ?? []) {
    const options = { path: cookie.path, secure: secureCookies };
    if (cookie.value === undefined) clearCookie(res, cookie.name, options);
    else setCookie(res, cookie.name, cookie.value, { ...options, maxAgeSeconds: cookie.maxAgeSeconds });
  }
  if (reply.raw) {
    if (reply.raw.fileName) {
      // Express encodes the name (RFC 6266); only the disposition's type differs for inline files.
      res.attachment(reply.raw.fileName);
      if (reply.raw.inline) res.set("content-disposition", res.get("content-disposition")!.replace(/^attachment/, "inline"));
    }
    res.status(reply.httpStatus).type(reply.raw.contentType).send(reply.raw.body);
    return;
  }
  res.status(reply.httpStatus).json(reply.body);
};

/** A session that still stands: its member as they are now, and the token's session id and expiry. */
export interface ActiveSession {
  readonly user: SessionUser;
  readonly sessionId: string;
  /** The token's `exp`, in milliseconds since the epoch. */
  readonly expiresAt: number;
}

/**
 * The session behind a token (`Authorization` header value, or the session cookie's value where a
 * cookie is accepted), if the token is valid and its session still stands.
 */
export const authenticateSession = async (
  { tokens, credentials, sessions }: Pick<GuardDeps, "tokens" | "credentials" | "sessions">,
  header: string | undefined,
): Promise<ActiveSession | undefined> => {
  const token = tokenFromHeader(header);
  const session = token ? tokens.verify(token) : undefined;
  if (!session) return undefined;
  const [credential, revoked] = await Promise.all([credentials.findById(session.user.id), sessions.isRevoked(session.sessionId)]);
  // A deleted member, a changed password or a sign-out ends the session; a renamed or re-roled
  // member keeps signing in, with the current name and role rather than the token's.
  if (revoked || !credential || credential.sessionGeneration !== session.sessionGeneration) return undefined;
  return {
    user: { id: credential.staffId, name: credential.name, type: credential.role },
    sessionId: session.sessionId,
    expiresAt: session.expiresAt,
  };
};

/** The staff member behind a request's token, if the token is valid and its session still stands. */
export const authenticate = async (
  deps: Pick<GuardDeps, "tokens" | "credentials" | "sessions">,
  header: string | undefined,
): Promise<SessionUser | undefined> => (await authenticateSession(deps, header))?.user;

export const mountEndpoints = (app: express.Express, endpoints: readonly Endpoint[], deps: MountDeps): void => {
  for (const endpoint of endpoints) {
    app[endpoint.method](`/api${endpoint.path}`, (req, res, next) => {
      const started = performance.now();
      res.once("finish", () => deps.metrics.observe(endpoint.method.toUpperCase(), endpoint.path, res.statusCode, (performance.now() - started) / 1000));
      void (async () => {
        // Decoded at the edge for every endpoint: text no store or search can hold is a 400 here.
        if (!holdsOnlyUsableText(req.body, req.query, req.params)) return send(res, fail(400, UNUSABLE_TEXT), deps.secureCookies);
        const requestId = headerId(req.get("x-request-id")) ?? randomUUID();
        const context = { req, requestId, ip: req.ip ?? req.socket.remoteAddress ?? "0.0.0.0" };
        const answer = async (user: SessionUser | undefined) => {
          // A staff client that has just run a command sends its position to read its own write.
          // Nobody else may make a request wait: it would hold a connection for nothing.
          const readAfter = user ? req.get("x-read-after") : undefined;
          const position = readAfter ? parsePosition(readAfter) : undefined;
          if (position) res.set("x-read-after-reached", String(await deps.waitForReadModels(position, endpoint.reads)));
          send(res, await endpoint.handle({ ...context, user }), deps.secureCookies);
        };
        if (endpoint.guard === "public") return answer(undefined);
        if (endpoint.guard === "service") {
          const token = tokenFromHeader(req.get("authorization"));
          if (!deps.serviceToken || !sameSecret(token, deps.serviceToken)) return send(res, fail(401, UNAUTHORIZED), deps.secureCookies);
          return answer(undefined);
        }
        const user = await authenticate(deps, req.get("authorization"));
        if (!user) return send(res, fail(401, UNAUTHORIZED), deps.secureCookies);
        if (!isAllowed(user.type, endpoint.guard)) return send(res, fail(403, FORBIDDEN), deps.secureCookies);
        await answer(user);
      })().catch(next);
    });
  }
};

/** Compared in constant time (as digests, so lengths do not show either): a guess learns nothing from how long the refusal took. */
const sameSecret = (given: string | undefined, expected: string) =>
  given !== undefined && timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest());

/** A proxy's request id is reused only when it is safe to store as a correlation id. */
const headerId = (value: string | undefined) => (value && /^[A-Za-z0-9._:-]{1,128}$/.test(value) ? value : undefined);
