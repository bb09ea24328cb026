import { createHash, timingSafeEqual } from "node:crypto";
import type express from "express";
import { projectionLag } from "@etd/projections";
import type { ApiDeps } from "./api-deps.ts";
import { fail } from "./http/reply.ts";
import { reactorLag } from "@etd/event-store";

/*
 * `/metrics` in Prometheus text (DESIGN §5): projection lag in events and seconds, the event
 * store's horizon age, and the latency of every endpoint. They tell an outsider how busy the
 * service is and which endpoints exist, so they are served only to this host (issue 9 item 11)
 * or to a scraper holding METRICS_TOKEN.
 *
 * "This host" is decided on the connection's own address, which no header can change, and, when
 * proxies are trusted (TRUST_PROXY), on the forwarded client as well: a proxy on this host
 * connects from loopback for every client it forwards.
 */

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

interface Histogram {
  readonly counts: number[];
  sum: number;
  count: number;
}

export interface RequestMetrics {
  observe(method: string, route: string, status: number, seconds: number): void;
  render(): string;
}

export const createRequestMetrics = (): RequestMetrics => {
  const histograms = new Map<string, Histogram>();
  return {
    observe: (method, route, status, seconds) => {
      const key = `method="${method}",route="${route}",status="${Math.floor(status / 100)}xx"`;
      const h = histograms.get(key) ?? { counts: BUCKETS.map(() => 0), sum: 0, count: 0 };
      BUCKETS.forEach((bound, i) => {
        if (seconds <= bound) h.counts[i]!++;
      });
      h.sum += seconds;
      h.count++;
      histograms.set(key, h);
    },
    render: () => {
      const lines = ["# HELP http_request_duration_seconds Time to answer a request, by endpoint.", "# TYPE http_request_duration_seconds histogram"];
      for (const [labels, h] of histograms) {
        BUCKETS.forEach((bound, i) => lines.push(`http_request_duration_seconds_bucket{${labels},le="${bound}"} ${h.counts[i]}`));
        lines.push(`http_request_duration_seconds_bucket{${labels},le="+Inf"} ${h.count}`);
        lines.push(`http_request_duration_seconds_sum{${labels}} ${h.sum}`);
        lines.push(`http_request_duration_seconds_count{${labels}} ${h.count}`);
      }
      return lines.join("\n");
    },
  };
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
  app.get("/metrics", (req, res, next) => {
    if (!isLocal(req) && !holdsToken(req.get("authorization"), access.token)) {
      res.status(403).json(fail(403, METRICS_REFUSED).body);
      return;
    }
    void (async () => {
      const [lag, reactors, horizon] = await Promise.all([projectionLag(deps.readDb), reactorLag(deps.readDb), deps.store.horizonAgeSeconds()]);
      const lines = [
        "# HELP projection_lag_events Events in the log that a projection build has not applied yet.",
        "# TYPE projection_lag_events gauge",
        ...lag.map((l) => `projection_lag_events{projection="${l.projection}",build="${l.build}",status="${l.status}"} ${l.eventsBehind ?? "NaN"}`),
        "# HELP projection_lag_seconds Age of the oldest event a projection build has not applied yet.",
        "# TYPE projection_lag_seconds gauge",
        ...lag.map((l) => `projection_lag_seconds{projection="${l.projection}",build="${l.build}",status="${l.status}"} ${l.secondsBehind}`),
        "# HELP projection_events_applied_total Events a projection build has applied.",
        "# TYPE projection_events_applied_total counter",
        ...lag.map((l) => `projection_events_applied_total{projection="${l.projection}",build="${l.build}",status="${l.status}"} ${l.eventsApplied}`),
        "# HELP reactor_lag_events Events in the log a reactor (mail, erasure, the Kafka relay) has not handled yet.",
        "# TYPE reactor_lag_events gauge",
        ...reactors.map((r) => `reactor_lag_events{reactor="${r.reactor}"} ${r.eventsBehind ?? "NaN"}`),
        "# HELP reactor_lag_seconds Age of the oldest event a reactor has not handled yet.",
        "# TYPE reactor_lag_seconds gauge",
        ...reactors.map((r) => `reactor_lag_seconds{reactor="${r.reactor}"} ${r.secondsBehind}`),
        "# HELP reactor_lease_held Whether some process holds the reactor's lease (1) or none does (0): none means nothing follows the log for it.",
        "# TYPE reactor_lease_held gauge",
        ...reactors.map((r) => `reactor_lease_held{reactor="${r.reactor}"} ${r.leaseOwner ? 1 : 0}`),
        "# HELP event_store_horizon_age_seconds Age of the oldest open transaction holding back readers of the log.",
        "# TYPE event_store_horizon_age_seconds gauge",
        `event_store_horizon_age_seconds ${horizon}`,
        // Memory, so that a leak or an answer held whole in memory (a large export) shows before the process is killed for it.
        "# HELP process_resident_memory_bytes Resident memory of the API process.",
        "# TYPE process_resident_memory_bytes gauge",
        `process_resident_memory_bytes ${process.memoryUsage.rss()}`,
        "# HELP nodejs_heap_used_bytes JavaScript heap in use.",
        "# TYPE nodejs_heap_used_bytes gauge",
        `nodejs_heap_used_bytes ${process.memoryUsage().heapUsed}`,
        // Counted in this process, like the request latencies; a scraper sums the processes.
        ...deps.twoFactor.challenges.refusedCodes.render(),
        requests.render(),
      ];
      res.type("text/plain; version=0.0.4").send(lines.join("\n") + "\n");
    })().catch(next);
  });
};
