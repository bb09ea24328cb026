import type express from "express";
import { PROJECTION_CHANNEL, listBuilds, parseApplyTrace } from "@etd/projections";
import { inSpan, tracing } from "@etd/telemetry";
import { formatPosition } from "@etd/event-store";
import type { LiveHello } from "@etd/contract";
import type { ApiDeps } from "./api-deps.ts";
import { cookieFromThisSite, SESSION_COOKIE } from "./http/cookies.ts";
import { authenticateSession, needsTwoFactorSetup, TWO_FACTOR_REQUIRED, UNAUTHORIZED, type ActiveSession } from "./http/endpoint.ts";
import { fail } from "./http/reply.ts";

/*
 * Live updates (DESIGN §5, CARD-3): an authenticated Server-Sent Events stream telling each
 * signed-in browser which read model moved and to which log position, so it refetches exactly
 * the queries that read it. One LISTEN per process feeds every client.
 *
 * Authentication (issue 9 item 7, ADR 0008): the Authorization header, as on every call, or else
 * the HttpOnly session cookie, since EventSource cannot send headers; the cookie only from this
 * site, as for every cookie-signed read (cookieFromThisSite, issue 25). Never a token in the URL,
 * which would land in proxy and access logs.
 *
 * A stream lives no longer than its session. The session is checked again every CHECK_MS, and a
 * stream writes nothing on a check older than that (it waits for a fresh one), so a signed-out,
 * deleted or password-changed member stops hearing anything within CHECK_MS and the stream
 * closes. A sign-out in this process closes its streams at once; the token's expiry closes it
 * on time.
 */

const CHECK_MS = 2_000;
const HEARTBEAT_MS = 20_000;
/** setTimeout's longest delay; a later expiry is caught by the periodic check instead. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Client {
  readonly res: express.Response;
  /** What the stream authenticated with, to check the same session again. */
  readonly credential: string;
  readonly session: ActiveSession;
  verifiedAt: number;
  checking: Promise<void> | undefined;
  /** Written once a fresh check confirms the session, in order. */
  readonly pending: string[];
  closed: boolean;
  readonly timers: ReturnType<typeof setTimeout>[];
}

export const mountLive = (app: express.Express, deps: ApiDeps): void => {
  const clients = new Set<Client>();

  const close = (client: Client) => {
    if (client.closed) return;
    client.closed = true;
    clients.delete(client);
    for (const timer of client.timers) clearTimeout(timer);
    client.pending.length = 0;
    client.res.end();
  };

  const recheck = (client: Client): Promise<void> =>
    (client.checking ??= authenticateSession(deps, client.credential)
      .then(
        (session) => {
          const stands = session && session.sessionId === client.session.sessionId && Date.now() < session.expiresAt;
          if (stands && !needsTwoFactorSetup(session, deps.requireTwoFactorFor)) {
            client.verifiedAt = Date.now();
            if (!client.closed) for (const text of client.pending.splice(0)) client.res.write(text);
          } else close(client);
        },
        (error: unknown) => {
          // Unsure whether the session stands: end the stream; the browser reconnects and is checked anew.
          console.error("live: session check failed", error);
          close(client);
        },
      )
      .finally(() => {
        client.checking = undefined;
      }));

  /** Writes at once on a fresh check; otherwise after the next check, if the session still stands. */
  const send = (client: Client, text: string) => {
    if (client.closed) return;
    if (Date.now() >= client.session.expiresAt) return close(client);
    if (client.pending.length === 0 && Date.now() - client.verifiedAt < CHECK_MS) {
      client.res.write(text);
      return;
    }
    client.pending.push(text);
    void recheck(client);
  };

  // A sign-out handled by this process closes that session's streams without waiting for a check.
  deps.sessions.onRevoked((sessionId) => {
    for (const client of clients) if (client.session.sessionId === sessionId) close(client);
  });

  const fanOut = (payload: string) => {
    for (const client of clients) send(client, `event: change\ndata: ${payload}\n\n`);
  };

  /**
   * With tracing on, a change is passed on in a span of the click's trace (issue 28): the batch
   * announces its span just before the change (parseApplyTrace), and the message continues it.
   * One per projection is kept: at most the last batch's.
   */
  const batchSpans = new Map<string, { readonly position: string; readonly traceparent: string }>();
  const fanOutTraced = (payload: string) => {
    const change = JSON.parse(payload) as { projection?: unknown; position?: unknown };
    const projection = typeof change.projection === "string" ? change.projection : "";
    const batch = batchSpans.get(projection);
    batchSpans.delete(projection);
    const attributes = { "etd.projection": projection, "etd.position": String(change.position), "etd.clients": clients.size };
    void inSpan("live message", { traceparent: batch !== undefined && batch.position === change.position ? batch.traceparent : undefined, attributes }, () => Promise.resolve(fanOut(payload)));
  };

  // Listening starts with the first client; the driver ends it when it closes.
  let listening: Promise<unknown> | undefined;
  const listen = () =>
    (listening ??= deps.readDb.onNotification(PROJECTION_CHANNEL, (payload) => {
      // A batch's span is not a change: never passed on, kept only while tracing.
      const batch = parseApplyTrace(payload);
      if (batch) {
        if (tracing()) batchSpans.set(batch.projection, batch);
        return;
      }
      if (tracing()) fanOutTraced(payload);
      else fanOut(payload);
    }).catch((error: unknown) => {
      listening = undefined;
      throw error;
    }));

  app.get("/api/live", (req, res, next) => {
    void (async () => {
      // The header when there is one (a wrong header is not rescued by a cookie); else the cookie.
      const credential = req.get("authorization") ?? cookieFromThisSite(req, SESSION_COOKIE);
      const session = credential === undefined ? undefined : await authenticateSession(deps, credential);
      if (credential === undefined || !session) {
        res.status(401).json(fail(401, UNAUTHORIZED).body);
        return;
      }
      // The feed names orders as they change: like every read, not before the second factor is set up.
      if (needsTwoFactorSetup(session, deps.requireTwoFactorFor)) {
        res.status(403).json(fail(403, TWO_FACTOR_REQUIRED).body);
        return;
      }
      await listen();
      res.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      const client: Client = { res, credential, session, verifiedAt: Date.now(), checking: undefined, pending: [], closed: false, timers: [] };
      req.on("close", () => close(client));
      // Where every read model stands now, so a client can tell whether it has missed anything.
      const builds = await listBuilds(deps.readDb.query);
      const hello: LiveHello = { positions: Object.fromEntries(builds.filter((b) => b.status === "live").map((b) => [b.name, formatPosition(b.checkpoint)])) };
      send(client, `retry: 2000\nevent: hello\ndata: ${JSON.stringify(hello)}\n\n`);
      if (client.closed) return;
      clients.add(client);
      client.timers.push(
        setInterval(() => void recheck(client), CHECK_MS),
        setInterval(() => send(client, ": ping\n\n"), HEARTBEAT_MS),
        setTimeout(() => close(client), Math.min(Math.max(session.expiresAt - Date.now(), 0), MAX_TIMER_MS)),
      );
    })().catch(next);
  });
};
