import { comparePositions, formatPosition, type GlobalPosition, type SqlDriver, type Subscription } from "@etd/event-store";
import { liveChangeText } from "@etd/contract";
import { parseStreamName } from "@etd/events";
import { inSpan, traceparentOf, tracing, type SpanOptions } from "@etd/telemetry";
import type { ProjectedEvent, Projection } from "./projection.ts";
import { acquireLease, promote, readBuild, tableOf, type Build, type BuildStatus } from "./registry.ts";
import { isTransient, LeaseLost, RETRY_MS, retryPause } from "./retry-policy.ts";

/*
 * A build's checkpoint, from both ends: how a worker moves it and announces it, and how a reader
 * waits for it.
 *
 * A BuildWorker is one build this process holds the lease of and applies events to. Whoever reads
 * the log for it (the shared reader, or its own subscription while it catches up) hands it
 * batches; it applies them in log order, each in one transaction that checks the lease and the
 * checkpoint it read from and moves the checkpoint with the changes, so no two processes ever
 * apply an event twice. A live build also announces the new checkpoint on PROJECTION_CHANNEL at
 * commit.
 *
 * `waitForPosition` (read-your-writes, DESIGN §1) is the other end: a query given a command's
 * position waits until the live builds it reads have moved their checkpoints past it, woken by
 * that announcement. Both ends share the checkpoint's columns, the live status and the channel, so
 * they are kept together.
 */

/**
 * The NOTIFY channel on which a live build announces `{projection, position}` as each batch
 * commits (and `promoted: true` when a build goes live): read-your-writes waits and the live
 * stream listen to it.
 */
export const PROJECTION_CHANNEL = "projection_changed";

/**
 * With tracing on (issue 28, ADR 0041), a live build's batch also announces its span on the same
 * channel, just before its change, so the live stream can continue the click's trace. It is not a
 * change: the live stream passes none of these on to its clients.
 */
export interface ApplyTrace {
  readonly projection: string;
  readonly position: string;
  readonly traceparent: string;
}
const applyTraceText = (trace: ApplyTrace) => JSON.stringify({ trace: trace.traceparent, projection: trace.projection, position: trace.position });

/** A batch's span, or undefined for a change (every other message on the channel). */
export const parseApplyTrace = (payload: string): ApplyTrace | undefined => {
  if (!payload.startsWith('{"trace":')) return undefined;
  const value = JSON.parse(payload) as { trace?: unknown; projection?: unknown; position?: unknown };
  return typeof value.trace === "string" && typeof value.projection === "string" && typeof value.position === "string"
    ? { traceparent: value.trace, projection: value.projection, position: value.position }
    : undefined;
};

/** Most ids a batch's span names: a rebuild's batch holds thousands. */
const MOST_NAMED = 32;

/** The batch's span: in the trace of its first event's click, linked to the others'. */
const batchSpan = (projection: string, build: number, events: readonly ProjectedEvent[]): SpanOptions => {
  if (!tracing()) return {};
  const correlations = [...new Set(events.map((e) => e.event.metadata.correlationId))];
  const orders = new Set<string>();
  for (const e of events) {
    const ref = parseStreamName(e.streamId);
    if (ref?.category === "order" && orders.size < MOST_NAMED) orders.add(ref.orderId);
  }
  return {
    correlationId: correlations[0],
    alsoFor: correlations.slice(1),
    attributes: {
      "etd.projection": projection,
      "etd.build": build,
      "etd.events": events.length,
      "etd.event_types": [...new Set(events.map((e) => e.event.type))],
      "etd.order_ids": [...orders],
      "etd.correlation_ids": correlations.slice(0, MOST_NAMED),
      "etd.position": formatPosition(events[events.length - 1]!.position),
    },
  };
};

/** What a worker needs from the projector that runs it. */
export interface WorkerHost {
  readonly driver: SqlDriver;
  /** Names this process in leases. */
  readonly owner: string;
  readonly leaseMs: number;
  readonly log: (message: string) => void;
  /** Its lease renewal found another process holding the build: stop it, keeping its lease. */
  readonly leaseGone: (worker: BuildWorker) => void;
  /** A batch failed for good (or the lease was lost at commit): take the worker out of service. */
  readonly fail: (worker: BuildWorker, error: unknown) => void;
}

export class BuildWorker {
  readonly projection: Projection;
  readonly build: number;
  /** The position of the last event applied (committed) to the build. */
  checkpoint: GlobalPosition;
  status: BuildStatus;
  /** While it catches up on its own, its subscription; undefined once the shared reader feeds it. */
  solo: Subscription | undefined = undefined;
  /** Its solo subscription has reached the head once: it may join the shared reader. */
  caughtUp = false;
  /** Pages the shared reader has handed it and it has not started to apply, oldest first. */
  readonly queue: (readonly ProjectedEvent[])[] = [];
  /** The transaction applying its last pages taken from the queue. */
  applying: Promise<void> = Promise.resolve();
  /** Settles once the queue is empty and nothing is being applied (or the worker failed). */
  drained: Promise<void> = Promise.resolve();
  ended = false;
  private draining = false;
  private readonly host: WorkerHost;
  private readonly renew: ReturnType<typeof setInterval>;

  constructor(host: WorkerHost, projection: Projection, build: Build) {
    this.host = host;
    this.projection = projection;
    this.build = build.build;
    this.checkpoint = build.checkpoint;
    this.status = build.status;
    // Renewed well within its term, so a slow renewal does not let another process take it.
    this.renew = setInterval(
      () => {
        acquireLease(host.driver.query, projection.name, build.build, host.owner, host.leaseMs)
          .then((held) => {
            if (!held && !this.ended) host.leaseGone(this);
          })
          .catch(() => undefined);
      },
      Math.max(100, Math.floor(host.leaseMs / 3)),
    );
  }

  /** Takes it out of service: its lease is no longer renewed and it applies nothing more. */
  end(): void {
    this.ended = true;
    clearInterval(this.renew);
  }

  /** Applies the events after its checkpoint, and moves the checkpoint, in one transaction. */
  async apply(batch: readonly ProjectedEvent[]): Promise<void> {
    const { projection, build } = this;
    const { driver, owner, leaseMs } = this.host;
    const from = this.checkpoint;
    const events = batch.filter((e) => comparePositions(e.position, from) > 0);
    const last = events[events.length - 1];
    if (!last) return;
    await inSpan(`project ${projection.name}`, batchSpan(projection.name, build, events), (span) => driver.transaction(async (query) => {
      // Locks the build's row until commit: nobody else moves its checkpoint meanwhile.
      const [row] = await query(
        `select status, checkpoint_tx, checkpoint_seq, lease_owner = $3 and lease_until > now() as held
           from projection_builds where name = $1 and build = $2 for update`,
        [projection.name, build, owner],
      );
      const checkpoint = row && { tx: BigInt(row.checkpoint_tx as string), seq: BigInt(row.checkpoint_seq as string) };
      if (!row || !checkpoint || row.status === "retired" || row.held !== true || comparePositions(checkpoint, from) !== 0) {
        throw new LeaseLost(`${projection.name} build ${build} is no longer this process's to write`);
      }
      // A build nobody reads yet need not wait for its commits to reach the disk: a crash can only
      // lose its last few batches whole, changes and checkpoint together, and they are applied again.
      if (row.status === "building") await query("set local synchronous_commit = off");
      const changed = await projection.apply(events, query, (base) => tableOf({ version: projection.version, build }, base));
      const traceparent = row.status === "live" ? traceparentOf(span) : undefined;
      if (traceparent) await query("select pg_notify($1, $2)", [PROJECTION_CHANNEL, applyTraceText({ projection: projection.name, position: formatPosition(last.position), traceparent })]);
      // The checkpoint moves with the changes; a live read model also tells listeners (at commit).
      await query(
        `with moved as (
           update projection_builds
              set checkpoint_tx = $3, checkpoint_seq = $4, events_applied = events_applied + $5, last_event_at = $6,
                  lease_until = now() + make_interval(secs => $7::double precision / 1000)
            where name = $1 and build = $2
           returning status)
         select pg_notify($8, $9) from moved where status = 'live'`,
        [
          projection.name,
          build,
          last.position.tx.toString(),
          last.position.seq.toString(),
          events.length,
          last.recordedAt,
          leaseMs,
          PROJECTION_CHANNEL,
          liveChangeText(projection.name, formatPosition(last.position), { changed: changed ?? undefined }),
        ],
      );
    }));
    this.checkpoint = last.position;
  }

  /** Queues a batch from the shared reader: its batches apply one after another, in log order. */
  handOver(events: readonly ProjectedEvent[]): void {
    this.queue.push(events);
    if (this.queue.length === 1 && !this.draining) this.drained = this.drain();
  }

  /** Promotes the build to live once the batches already handed to it are applied. */
  promoteLater(): void {
    this.drained
      .then(() => this.promoteIfBuilding())
      .catch((error: unknown) => this.host.log(`${this.projection.name}: promotion failed: ${String(error)}`));
  }

  /** Applies the queue in log order, everything waiting at once, until it is empty. */
  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0 && !this.ended) {
        const events = this.queue.splice(0).flat();
        this.applying = this.apply(events);
        try {
          await this.applying;
        } catch (error) {
          if (!isTransient(error)) throw error;
          this.host.log(`${this.projection.name}: writing failed, trying again in ${RETRY_MS} ms: ${String(error)}`);
          this.queue.unshift(events);
          // The reader's back-pressure waits on this: it must wait out the pause, not spin on a failure.
          this.applying = retryPause();
          await this.applying;
        }
      }
    } catch (error) {
      this.host.fail(this, error);
    } finally {
      this.queue.length = 0;
      this.draining = false;
    }
  }

  private async promoteIfBuilding(): Promise<void> {
    const { projection, build } = this;
    if (this.status !== "building" || this.ended) return;
    await this.host.driver.transaction(async (query) => {
      const current = await readBuild(query, projection.name, build, true);
      if (!current || current.status !== "building") return;
      await promote(query, current, projection.tables);
      await query("select pg_notify($1, $2)", [PROJECTION_CHANNEL, liveChangeText(projection.name, formatPosition(current.checkpoint), { promoted: true })]);
    });
    this.status = "live";
    this.host.log(`${projection.name}: build ${build} (version ${projection.version}) is live`);
  }
}

/*
 * Read-your-writes (DESIGN §1): a command answers the position of its last event; a query given
 * that position waits until the live builds of the projections it reads have applied it. The
 * announcement above wakes the wait; a short poll covers a lost notification.
 */

const reached = async (driver: SqlDriver, position: GlobalPosition, projections: readonly string[]): Promise<boolean> => {
  const rows = await driver.query(
    "select name, checkpoint_tx::text as tx, checkpoint_seq::text as seq from projection_builds where status = 'live' and name = any($1::text[])",
    [projections],
  );
  if (rows.length < projections.length) return false;
  return rows.every((row) => comparePositions({ tx: BigInt(row.tx as string), seq: BigInt(row.seq as string) }, position) >= 0);
};

/** True once every named projection has applied `position`; false if `timeoutMs` passes first. */
export const waitForPosition = async (
  driver: SqlDriver,
  position: GlobalPosition,
  projections: readonly string[],
  timeoutMs = 5000,
): Promise<boolean> => {
  if (await reached(driver, position, projections)) return true;
  let wake = () => {};
  const stopListening = await driver.onNotification(PROJECTION_CHANNEL, () => wake());
  try {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, Math.min(250, Math.max(0, deadline - Date.now())));
      });
      if (await reached(driver, position, projections)) return true;
    }
    return false;
  } finally {
    await stopListening();
  }
};
