import { formatPosition } from "@etd/event-store";
import { ALL_PROJECTIONS, projectionLag } from "@etd/projections";
import express from "express";
import type { AppDeps } from "./api-deps.ts";
import { createRequestMetrics, mountMetrics } from "./metrics.ts";
import { fail } from "./http/reply.ts";
import { securityHeaders } from "./http/security-headers.ts";

/** /api/health and /api/ready: what a load balancer and an orchestrator ask every process. */
export const mountProbes = (app: express.Express, deps: Pick<AppDeps, "readDb" | "store" | "eventStoreKind">): void => {
  // Ready when the log answers and every read model has a live build no more than a minute behind.
  app.get("/api/ready", async (_req, res) => {
    try {
      const lag = await projectionLag(deps.readDb);
      const waiting = ALL_PROJECTIONS.filter((p) => !lag.some((l) => l.projection === p.name && l.status === "live" && l.secondsBehind < 60));
      if (waiting.length === 0) res.json({ status: 1, message: "Ready", data: { projections: lag } });
      else res.status(503).json({ status: 0, message: `Read models not ready: ${waiting.map((p) => p.name).join(", ")}`, data: { projections: lag } });
    } catch (error) {
      console.error("readiness check failed", error);
      res.status(503).json({ status: 0, message: "The database is not reachable.", data: null });
    }
  });

  app.get("/api/health", async (_req, res) => {
    try {
      const [head, horizonAgeSeconds] = await Promise.all([deps.store.headPosition(), deps.store.horizonAgeSeconds()]);
      res.json({
        status: 1,
        message: "OK",
        data: { eventStore: deps.eventStoreKind, head: formatPosition(head), horizonAgeSeconds },
      });
    } catch (error) {
      console.error("health check failed", error);
      res.status(503).json({ status: 0, message: "The event store is not reachable.", data: null });
    }
  });
};

/**
 * The HTTP side of a process that does not serve the API (RUN without `api`, DESIGN §9): its
 * health for the orchestrator and its /metrics (the lag of what it runs), nothing else.
 */
export const createProbeApp = (deps: AppDeps): express.Express => {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", deps.trustProxy ?? false);
  app.use(securityHeaders({ https: deps.secureCookies }));
  mountProbes(app, deps);
  mountMetrics(app, deps, createRequestMetrics(), { token: deps.metricsToken });
  app.use((_req, res) => {
    res.status(404).json(fail(404, "This process serves /api/health, /api/ready and /metrics only.").body);
  });
  return app;
};
