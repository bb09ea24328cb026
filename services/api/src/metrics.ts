import { createHash, timingSafeEqual } from "node:crypto";
import type express from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { projectionLag, type BuildLag } from "@etd/projections";
import type { ApiDeps } from "./api-deps.ts";
import { fail } from "./http/reply.ts";
import { reactorLag } from "@etd/event-store";

/*
 * `/metrics` in Prometheus text (DESIGN §5), by prom-client: projection lag in events and seconds,
 * the event store's horizon age, the latency of every endpoint, and Node's own figures (event-loop
 * lag, heap, GC, CPU: issue 28, since the 11 s freeze of issue 17 showed nowhere). They tell an
 * outsider how busy the service is and which endpoints exist, so they are served only to this host
 * (issue 9 item 11) or to a scraper holding METRICS_TOKEN.
 *
 * "This host" is decided on the connection's own address, which no header can change, and, when
 * proxies are trusted (TRUST_PROXY), on the forwarded client as well: a proxy on this host
 * connects from loopback for every client it forwards.
 */

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export interface RequestMetrics {
  observe(method: string, route: string, status: number, seconds: number): void;
  /** Registered in the registry of each app that serves it. */
  readonly histogram: Histogram<"method" | "route" | "status">;
}

export const createRequestMetrics = (): RequestMetrics => {
  const histogram = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer a request, by endpoint.",
    labelNames: ["method", "route", "status"],
    buckets: BUCKETS,
    registers: [],
  });
  return {
    histogram,
    observe: (method, route, status, seconds) => histogram.observe({ method, route, status: `${Math.floor(status / 100)}xx` }, seconds),
  };
};

/**
 * Node's default metrics belong to the process, not to an app: collected once, in a registry of
 * their own, however many apps one process serves (the tests start several). Each app's own
 * figures are in its own registry, so two apps never register a name twice.
 */
let processRegistry: Registry | undefined;
const processMetrics = (): Registry => {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
};

interface Lag {
  readonly projections: readonly BuildLag[];
  readonly reactors: Awaited<ReturnType<typeof reactorLag>>;
  readonly horizon: number;
}

/**
 * One read of the database per scrape: every gauge that shows it asks while the scrape renders
 * them all at once, so they share the read in flight and agree with each other.
 */
const sharedRead = (read: () => Promise<Lag>): (() => Promise<Lag>) => {
  let pending: Promise<Lag> | undefined;
  return () =>
    (pending ??= read().finally(() => {
      pending = undefined;
    }));
};

/** A registry with the lag the database tells at scrape time, the latencies and the two-factor refusals. */
const appRegistry = (deps: Pick<ApiDeps, "readDb" | "store" | "twoFactor">, requests: RequestMetrics): Registry => {
  const registry = new Registry();
  const lag = sharedRead(async () => {
    const [projections, reactors, horizon] = await Promise.all([projectionLag(deps.readDb), reactorLag(deps.readDb), deps.store.horizonAgeSeconds()]);
    return { projections, reactors, horizon };
  });
  const buildLabels = ["projection", "build", "status"] as const;
  const ofBuild = (l: BuildLag) => ({ projection: l.projection, build: l.build, status: l.status });
  // A build or a reactor that is gone is no longer shown: each collect sets the gauge afresh.
  new Gauge({
    name: "projection_lag_events",
    help: "Events in the log that a projection build has not applied yet.",
    labelNames: buildLabels,
    registers: [registry],
    async collect() {
      const { projections } = await lag();
      this.reset();
      for (const l of projections) this.set(ofBuild(l), l.eventsBehind ?? Number.NaN);
    },
  });
  new Gauge({
    name: "projection_lag_seconds",
    help: "Age of the oldest event a projection build has not applied yet.",
    labelNames: buildLabels,
    registers: [registry],
    async collect() {
      const { projections } = await lag();
      this.reset();
      for (const l of projections) this.set(ofBuild(l), l.secondsBehind);
    },
  });
  // A counter the builds keep in the database: shown as they count it, not counted here.
  new Counter({
    name: "projection_events_applied_total",
    help: "Events a projection build has applied.",
    labelNames: buildLabels,
    registers: [registry],
    async collect() {
      const { projections } = await lag();
      this.reset();
      for (const l of projections) this.inc(ofBuild(l), l.eventsApplied);
    },
  });
  new Gauge({
    name: "reactor_lag_events",
    help: "Events in the log a reactor (mail, erasure, the Kafka relay) has not handled yet.",
    labelNames: ["reactor"],
    registers: [registry],
    async collect() {
      const { reactors } = await lag();
      this.reset();
      for (const r of reactors) this.set({ reactor: r.reactor }, r.eventsBehind ?? Number.NaN);
    },
  });
  new Gauge({
    name: "reactor_lag_seconds",
    help: "Age of the oldest event a reactor has not handled yet.",
    labelNames: ["reactor"],
    registers: [registry],
    async collect() {
      const { reactors } = await lag();
      this.reset();
      for (const r of reactors) this.set({ reactor: r.reactor }, r.secondsBehind);
    },
  });
  new Gauge({
    name: "reactor_lease_held",
    help: "Whether some process holds the reactor's lease (1) or none does (0): none means nothing follows the log for it.",
    labelNames: ["reactor"],
    registers: [registry],
    async collect() {
      const { reactors } = await lag();
      this.reset();
      for (const r of reactors) this.set({ reactor: r.reactor }, r.leaseOwner ? 1 : 0);
    },
  });
  new Gauge({
    name: "event_store_horizon_age_seconds",
    help: "Age of the oldest open transaction holding back readers of the log.",
    registers: [registry],
    async collect() {
      this.set((await lag()).horizon);
    },
  });
  // Memory, so that a leak or an answer held whole in memory (a large export) shows before the
  // process is killed for it. The resident size is the default metrics' process_resident_memory_bytes.
  new Gauge({
    name: "nodejs_heap_used_bytes",
    help: "JavaScript heap in use.",
    registers: [registry],
    collect() {
      this.set(process.memoryUsage().heapUsed);
    },
  });
  // Counted in this process, like the request latencies; a scraper sums the processes.
  registry.registerMetric(deps.twoFactor.challenges.refusedCodes.counter);
  registry.registerMetric(requests.histogram);
  return registry;
};

export interface MetricsAccess {
  /** METRICS_TOKEN: `Authorization: Bearer <token>` reads the metrics from anywhere. */
  readonly token?: string | undefined;
  /** Whether a request comes from this host; tests replace it to act as a remote client. */
  readonly isLocal?: (req: express.Request) => boolean;
}

export const METRICS_REFUSED = "Metrics are served to this host only, or with the metrics token.";

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (a dual-stack socket's form). */
export const isLoopbackAddress = (address: string | undefined): boolean =>
  address !== undefined && (/^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address) || address === "::1");

/** The connection is from loopback, and so is the client a trusted proxy forwarded, if any. */
export const isLocalRequest = (req: express.Request): boolean => isLoopbackAddress(req.socket.remoteAddress) && isLoopbackAddress(req.ip);

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Compares digests, not the strings, so the time taken tells nothing about the token. */
const holdsToken = (header: string | undefined, token: string | undefined): boolean => {
  if (!token || !header) return false;
  const presented = /^Bearer\s+(\S+)$/i.exec(header.trim())?.[1];
  return presented !== undefined && timingSafeEqual(digest(presented), digest(token));
};

export const mountMetrics = (app: express.Express, deps: Pick<ApiDeps, "readDb" | "store" | "twoFactor">, requests: RequestMetrics, access: MetricsAccess = {}): void => {
  const isLocal = access.isLocal ?? isLocalRequest;
  const registry = appRegistry(deps, requests);
  const defaults = processMetrics();
  app.get("/metrics", (req, res, next) => {
    if (!isLocal(req) && !holdsToken(req.get("authorization"), access.token)) {
      res.status(403).json(fail(403, METRICS_REFUSED).body);
      return;
    }
    void (async () => {
      const [own, process] = await Promise.all([registry.metrics(), defaults.metrics()]);
      res.type(registry.contentType).send(`${own}\n${process}`);
    })().catch(next);
  });
};
