import express from "express";
import { ENDPOINTS } from "@etd/contract/endpoints";
import { bindEndpoints, joinHandlers, mountEndpoints, type Endpoint, type Handlers } from "./http/endpoint.ts";
import { fail } from "./http/reply.ts";
import { noStore, securityHeaders } from "./http/security-headers.ts";
import { UNUSABLE_TEXT } from "./http/clean-text.ts";
import { openApiDocument } from "./openapi.ts";
import { ALL_PROJECTIONS, waitForPosition } from "@etd/projections";
import { mountLive } from "./live.ts";
import { createRequestMetrics, mountMetrics } from "./metrics.ts";
import { auditHandlers } from "./routes/audit-queries.ts";
import { orderDetailQueryHandlers } from "./routes/order-detail-queries.ts";
import { queueQueryHandlers } from "./routes/queue-queries.ts";
import { gatewayQueryHandlers } from "./routes/gateway-queries.ts";
import { reportQueryHandlers } from "./routes/report-queries.ts";
import { exportHandlers, exportSlots } from "./routes/export-routes.ts";
import { dashboardHandlers } from "./routes/dashboard-routes.ts";
import { staffQueryHandlers } from "./routes/staff-queries.ts";
import type { ApiDeps, AppDeps } from "./api-deps.ts";
import { authHandlers } from "./routes/auth-routes.ts";
import { twoFactorHandlers } from "./routes/two-factor-routes.ts";
import { defencePackHandlers } from "./routes/defence-pack-routes.ts";
import { mountDocumentFiles } from "./routes/document-files.ts";
import { mountMailWebhooks } from "./routes/mail-webhook-routes.ts";
import { gatewayHandlers } from "./routes/gateway-routes.ts";
import { intakeHandlers } from "./routes/intake-routes.ts";
import { orderHandlers } from "./routes/order-routes.ts";
import { mailHandlers } from "./routes/mail-routes.ts";
import { orderPresenceHandlers } from "./routes/presence-routes.ts";
import { publicHandlers } from "./routes/public-routes.ts";
import { serviceLevelHandlers } from "./routes/service-level-routes.ts";
import { operationHandlers } from "./routes/operation-routes.ts";
import { staffAccountHandlers } from "./routes/staff-routes.ts";
import { takeNextHandlers } from "./routes/take-next-routes.ts";
import { uploadHandlers } from "./routes/upload-routes.ts";
import { mountWebApp } from "./web-app.ts";
import { mountProbes } from "./probes.ts";


/** Every endpoint of the API, in one table: the server, the OpenAPI document and the R6 test walk it. */
export const allEndpoints = (deps: ApiDeps): Endpoint[] => bindEndpoints(ENDPOINTS, handlersOf(deps));

/** A handler for every declared endpoint (@etd/contract/endpoints), by name; a name handled twice fails the typecheck (joinHandlers). */
const handlersOf = (deps: ApiDeps): Handlers => {
  // One member's exports at once are counted across every file they may download: the CSVs and the audit's logs.
  const slots = exportSlots();
  return joinHandlers(
    authHandlers(deps),
    twoFactorHandlers(deps),
    intakeHandlers(deps),
    publicHandlers(deps),
    orderHandlers(deps),
    takeNextHandlers(deps),
    mailHandlers(deps),
    orderPresenceHandlers(deps),
    defencePackHandlers(deps),
    uploadHandlers(deps),
    orderDetailQueryHandlers(deps),
    auditHandlers(deps, slots),
    staffAccountHandlers(deps),
    staffQueryHandlers(deps),
    queueQueryHandlers(deps),
    reportQueryHandlers(deps),
    exportHandlers(deps, slots),
    dashboardHandlers(deps, slots),
    gatewayQueryHandlers(deps),
    gatewayHandlers(deps),
    serviceLevelHandlers(deps),
    operationHandlers(deps),
  );
};

/**
 * A proxy on the same machine without TRUST_PROXY makes every client 127.0.0.1: one client's
 * failures then throttle everyone, and /metrics counts everyone as local. Said once, in the log.
 */
const warnOfUntrustedProxy = (): express.RequestHandler => {
  let warned = false;
  return (req, _res, next) => {
    if (!warned && req.get("x-forwarded-for") && /^(127\.|::1$|::ffff:127\.)/.test(req.socket.remoteAddress ?? "")) {
      warned = true;
      console.warn("Requests arrive through a local proxy (X-Forwarded-For from a loopback address) but TRUST_PROXY is not set: every client looks the same to the throttles and /metrics. Set TRUST_PROXY (e.g. TRUST_PROXY=loopback).");
    }
    next();
  };
};

/** The HTTP edge. Every answer uses the specs' envelope `{status, message, data}`. */
export const createApp = (deps: AppDeps): express.Express => {
  const app = express();
  app.disable("x-powered-by");
  // A client's address is the connection's unless an operator names the proxies in front
  // (TRUST_PROXY): anyone can send X-Forwarded-For, and throttles and the audit use the address.
  app.set("trust proxy", deps.trustProxy ?? false);
  if (deps.trustProxy === undefined) app.use(warnOfUntrustedProxy());
  // First, so that every answer carries them, errors and 404s included (issue 9 item 9).
  app.use(securityHeaders({ https: deps.secureCookies }));
  app.use("/api", noStore);
  // Before the JSON parser: the providers' signatures are checked on the raw body (ADR 0019).
  mountMailWebhooks(app, deps);
  app.use("/api", express.json({ limit: "2mb" }));

  mountProbes(app, deps);

  const endpoints = allEndpoints(deps);
  const document = openApiDocument(endpoints);
  app.get("/api/openapi.json", (_req, res) => {
    res.json(document);
  });
  const metrics = createRequestMetrics();
  mountEndpoints(app, endpoints, {
    tokens: deps.tokens,
    credentials: deps.credentials,
    sessions: deps.sessions,
    requireTwoFactorFor: deps.requireTwoFactorFor,
    serviceToken: deps.serviceToken,
    metrics,
    secureCookies: deps.secureCookies,
    // A query waits only for the read models it reads (Endpoint.reads); anything else for all of them.
    waitForReadModels: (position, projections) =>
      projections?.length === 0 ? Promise.resolve(true) : waitForPosition(deps.readDb, position, projections ?? ALL_PROJECTIONS.map((p) => p.name)),
  });
  mountLive(app, deps);
  mountMetrics(app, deps, metrics, { token: deps.metricsToken });

  app.use("/api", (_req, res) => {
    res.status(404).json(fail(404, "This API path does not exist.").body);
  });
  // The document links (ORDER-14), before the web app, which would answer them with 404.
  mountDocumentFiles(app, deps);
  mountWebApp(app, { https: deps.secureCookies, translateWidget: deps.translateWidget });

  // Malformed JSON and oversized bodies are the client's fault and answer 4xx; anything else is
  // ours: logged with its context, answered with a message that reveals nothing.
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const clientStatus = (error as { status?: unknown; type?: unknown }).status;
    if (typeof clientStatus === "number" && clientStatus >= 400 && clientStatus < 500) {
      // A path whose %-escapes are not UTF-8 fails to decode before any endpoint sees it.
      const message =
        clientStatus === 413 ? "The request is too large." : error instanceof URIError ? UNUSABLE_TEXT : "The request body is not valid JSON.";
      res.status(clientStatus).json(fail(clientStatus, message).body);
      return;
    }
    console.error(`${req.method} ${req.originalUrl} failed`, error);
    if (res.headersSent) return;
    res.status(500).json(fail(500, "Something went wrong on our side. Please try again.").body);
  });

  return app;
};
