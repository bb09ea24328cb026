/*
 * What the engine tries again and what stops a build for good. Reading the log and writing a
 * batch can fail for reasons that say nothing about the events or the projection (a connection
 * gone, a lost race): those are tried again after a pause. An event that does not decode, or a
 * projection whose apply fails otherwise, stops the build: a read model that skipped an event
 * would be wrong forever.
 */

/** How long a subscription that could not read the log, or a build that could not write, waits to try again. */
export const RETRY_MS = 1000;

/** The pause before a retry. */
export const retryPause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, RETRY_MS));

/** The batch could not commit because another process took over the build (or retired it). */
export class LeaseLost extends Error {}

/**
 * What stops a build for good: an event that does not decode, or the projection's apply failing
 * for any reason but a transient one (isTransient). A failure to read the log is tried again.
 */
export class BuildBroken extends Error {}

/**
 * A database error that says nothing about the events or the projection: the connection went
 * (SQLSTATE class 08, an administrator or a failover ending it, a client-side drop), or the
 * transaction lost a deadlock or serialization race. The batch rolled back; it is applied again.
 * If its commit went through before the connection did, the retry finds the checkpoint moved and
 * stops the worker; the next scan starts a fresh one from the stored checkpoint.
 */
export const isTransient = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (/^(08|40001|40P01|57P0[123])/.test(code) || ["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT"].includes(code))) return true;
  // pg's and pg-pool's own words for a connection that has gone or could not be had; no code.
  return error instanceof Error && /Connection terminated|not queryable|timeout exceeded when trying to connect/.test(error.message);
};
