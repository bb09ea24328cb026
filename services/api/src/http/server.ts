import http from "node:http";

/*
 * The HTTP server with its time limits written down (issue 9 item 11) rather than left to Node's
 * defaults, so that a client sending its request slowly (a few bytes a minute, to hold
 * connections open) is cut off at known times.
 *
 * - headersTimeout: the whole header block must arrive within 20 s of the request's first byte.
 * - requestTimeout: the whole request, body included, within 2 minutes: a 100 MB upload (the
 *   largest MAX_UPLOAD_MB allows) needs a little under 7 Mbit/s. Responses are not limited: the
 *   live feed (SSE) is one long response.
 * - keepAliveTimeout: an idle kept-alive connection closes after 65 s, longer than the 60 s after
 *   which common proxies drop idle upstream connections, so the proxy always closes first and
 *   never sends a request on a connection we are closing.
 * - connectionsCheckingInterval: how often the first two are checked.
 */

export interface ServerTimeouts {
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly checkEveryMs: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 65_000,
  checkEveryMs: 5_000,
};

/** A server for `handler` (an Express app) with these time limits; call `listen` on it. */
export const createHttpServer = (handler: http.RequestListener, timeouts: ServerTimeouts = SERVER_TIMEOUTS): http.Server =>
  http.createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      keepAliveTimeout: timeouts.keepAliveTimeoutMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
    },
    handler,
  );
