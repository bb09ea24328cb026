import type * as Kurrent from "@kurrent/kurrentdb-client";
import type {
  AllStreamResolvedEvent,
  AllStreamSubscription,
  AppendResult as KurrentAppendResult,
  CurrentStreamState,
  KurrentDBClient,
  Position,
  ReadPosition,
  RecordedEvent as KurrentRecordedEvent,
} from "@kurrent/kurrentdb-client";
import { Doorbell, followLog } from "../follow-log.ts";
import {
  comparePositions,
  START,
  WrongExpectedVersion,
  type AppendResult,
  type EventStore,
  type ExpectedVersion,
  type GlobalPosition,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeOptions,
  type Subscription,
} from "../port.ts";
import {
  actualVersion,
  expectedRevision,
  isSystemRecord,
  readPositionAfter,
  revisionOfVersion,
  sameEventId,
  toGlobalPosition,
  toJsonObject,
  toStreamState,
  unwrapMetadata,
  versionOfRevision,
  wrapMetadata,
} from "./mapping.ts";

export interface KurrentDbEventStoreOptions {
  /** E.g. `kurrentdb://127.0.0.1:2113?tls=false` (`esdb://` is still accepted by the client). */
  connectionString: string;
  /**
   * How subscriptions follow the log. "native" (default) uses KurrentDB's catch-up subscription
   * to $all, which pushes live events; "polling" pages through $all with `readAll` like the SQL
   * adapters, waking at once for this process's appends and every `pollIntervalMs` otherwise.
   */
  subscriptions?: "native" | "polling";
  /** Polling subscriptions only: how often to look for other processes' appends (default 500). */
  pollIntervalMs?: number;
}

/** What the store needs to read of a stream event; both the gRPC and the Rust-bridge reads give it. */
type StoredEvent = KurrentRecordedEvent & { position?: Position };

const toRecorded = (event: StoredEvent): RecordedEvent => {
  if (!event.position) {
    // Stream reads carry the $all position only from server 22.6 on.
    throw new Error(`KurrentDB returned event ${event.id} without its log position: the server is older than 22.6`);
  }
  const { metadata, schemaVersion } = unwrapMetadata(event.metadata);
  return {
    eventId: event.id,
    type: event.type,
    schemaVersion,
    data: toJsonObject(event.data),
    metadata,
    streamId: event.streamId,
    streamPosition: versionOfRevision(event.revision),
    position: toGlobalPosition(event.position),
    recordedAt: event.created,
  };
};

/** The port's events in a page of $all: no system records, nothing at or before `after`. */
const keep = (resolved: AllStreamResolvedEvent, after: GlobalPosition): resolved is AllStreamResolvedEvent & {
  event: NonNullable<AllStreamResolvedEvent["event"]>;
} => {
  const event = resolved.event;
  return (
    event !== undefined &&
    !isSystemRecord(event.streamId, event.type) &&
    comparePositions(toGlobalPosition(event.position), after) > 0
  );
};

/**
 * The client, loaded when a KurrentDB store is created: it brings gRPC and a native module along,
 * which processes on the other adapters need not load.
 */
type KurrentModule = typeof Kurrent;

/**
 * The event store on KurrentDB (formerly EventStoreDB), through its official Node client.
 *
 * KurrentDB has its own answers to what the SQL adapters build by hand: one writer orders the
 * log, so $all never shows a gap that a later commit fills (no read horizon to hold back), and a
 * catch-up subscription delivers $all in order and then live.
 */
class KurrentDbEventStore implements EventStore {
  readonly #client: KurrentDBClient;
  readonly #kurrent: KurrentModule;
  readonly #options: KurrentDbEventStoreOptions;
  readonly #doorbell = new Doorbell();
  readonly #subscriptions = new Set<Subscription>();

  constructor(client: KurrentDBClient, kurrent: KurrentModule, options: KurrentDbEventStoreOptions) {
    this.#client = client;
    this.#kurrent = kurrent;
    this.#options = options;
  }

  /**
   * Appends with KurrentDB's expected-revision check. Retries are answered like the SQL adapters
   * do (`duplicate: true`, the stored positions, nothing written), which KurrentDB alone does not
   * make visible: it answers a recognised retry with the same success as the first attempt. So:
   *
   * - The stream's last revision is read first. A writer that names a version (a number or
   *   "no_stream") and finds the stream past it is either retrying or late: the slots after its
   *   version are read, and if they hold its event ids, in order, the append is a duplicate;
   *   otherwise it is refused with the stream's version. Nothing is sent in either case.
   * - Otherwise the append goes to the server. Its answer is a duplicate exactly when the
   *   revision it reports was already in the stream before (KurrentDB recognised the event ids).
   *
   * Limit: with "any" or "stream_exists", KurrentDB recognises retried event ids only while they
   * are in its recent-writes cache; a much later retry is written again. Writers that need exact
   * idempotency name the version (every command handler does).
   */
  async append(
    streamId: string,
    events: readonly NewEvent[],
    { expectedVersion }: { readonly expectedVersion: ExpectedVersion },
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error("append needs at least one event");
    const streamState = toStreamState(expectedVersion);
    const expected = expectedRevision(expectedVersion);
    const before = await this.#lastRevision(streamId);

    if (expected !== undefined && before > expected) {
      const stored = await this.#storedRetry(streamId, events, expected);
      if (stored) return stored;
      throw new WrongExpectedVersion(streamId, expectedVersion, versionOfRevision(before));
    }

    const proposed = events.map((e) =>
      this.#kurrent.jsonEvent({ id: e.eventId, type: e.type, data: e.data, metadata: wrapMetadata(e.metadata, e.schemaVersion) }),
    );
    let result: KurrentAppendResult;
    try {
      result = await this.#client.appendToStream(streamId, proposed, { streamState });
    } catch (error) {
      if (error instanceof this.#kurrent.WrongExpectedVersionError) return this.#refused(streamId, events, expectedVersion, error.actualState);
      throw error;
    }
    if (!result.success) {
      // Only with `throwOnAppendFailure=false` in the connection string; the client's batch append
      // then misreports the current revision, so ask the stream.
      const now = await this.#lastRevision(streamId);
      return this.#refused(streamId, events, expectedVersion, now < 0n ? "no_stream" : now);
    }

    const duplicate = result.nextExpectedRevision <= before;
    if (!duplicate) this.#doorbell.ring();
    // A fresh append reports the last event's position ((p, p): KurrentDB writes each event as its
    // own committed record). A recognised retry is answered from the stream instead, since older
    // servers report no position for it.
    const position =
      !duplicate && result.position ? toGlobalPosition(result.position) : await this.#positionAt(streamId, result.nextExpectedRevision);
    return { nextVersion: versionOfRevision(result.nextExpectedRevision), position, duplicate };
  }

  async readStream(streamId: string, { from = 1n, to }: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const first = from < 1n ? 1n : from;
    if (to !== undefined && to < first) return [];
    const read: RecordedEvent[] = [];
    try {
      for await (const resolved of this.#client.readStream(streamId, {
        direction: "forwards",
        fromRevision: revisionOfVersion(first),
        ...(to === undefined ? {} : { maxCount: to - first + 1n }),
      })) {
        if (!resolved.event) continue;
        const recorded = toRecorded(resolved.event);
        if (to !== undefined && recorded.streamPosition > to) break;
        read.push(recorded);
      }
    } catch (error) {
      if (this.#isStreamNotFound(error)) return [];
      throw error;
    }
    return read;
  }

  /**
   * A page of $all after `after`. KurrentDB starts a read at the given position inclusively, and
   * its type filter leaves events of `$` streams in, so this asks for one more than it needs,
   * drops what the port does not show, and reads on if that left the page short.
   */
  async readAll({ after = START, limit }: ReadAllOptions): Promise<RecordedEvent[]> {
    const page: RecordedEvent[] = [];
    let from = after;
    while (page.length < limit) {
      const want = limit - page.length + 1;
      let received = 0;
      let last: GlobalPosition | undefined;
      for await (const resolved of this.#client.readAll({
        direction: "forwards",
        fromPosition: readPositionAfter(from),
        maxCount: want,
        filter: this.#kurrent.excludeSystemEvents(),
      })) {
        received += 1;
        if (resolved.event) last = toGlobalPosition(resolved.event.position);
        if (keep(resolved, from) && page.length < limit) page.push(toRecorded(resolved.event));
      }
      if (received < want || !last || comparePositions(last, from) <= 0) break;
      from = last;
    }
    return page;
  }

  subscribe(options: SubscribeOptions): Subscription {
    const subscription =
      this.#options.subscriptions === "polling"
        ? followLog(
            {
              readAll: (after, limit) => this.readAll({ after, limit }),
              doorbell: this.#doorbell,
              pollIntervalMs: this.#options.pollIntervalMs ?? 500,
            },
            options,
          )
        : followNatively(this.#client, this.#kurrent.excludeSystemEvents(), options, () => this.headPosition());
    this.#subscriptions.add(subscription);
    void subscription.done.then(() => this.#subscriptions.delete(subscription));
    return subscription;
  }

  /** The last event of $all that the port shows (system records are skipped). */
  async headPosition(): Promise<GlobalPosition> {
    const pageSize = 20;
    let from: ReadPosition = "end";
    let bound: GlobalPosition | undefined;
    for (;;) {
      let received = 0;
      let oldest: Position | undefined;
      for await (const resolved of this.#client.readAll({
        direction: "backwards",
        fromPosition: from,
        maxCount: pageSize,
        filter: this.#kurrent.excludeSystemEvents(),
      })) {
        received += 1;
        const event = resolved.event;
        if (!event) continue;
        oldest = event.position;
        const position = toGlobalPosition(event.position);
        if (bound && comparePositions(position, bound) >= 0) continue; // the page overlaps the last one
        if (!isSystemRecord(event.streamId, event.type)) return position;
      }
      // The type filter leaves events of `$` streams in; page on past them (rarely needed).
      if (received < pageSize || !oldest) return START;
      const next = toGlobalPosition(oldest);
      if (bound && comparePositions(next, bound) >= 0) return START;
      bound = next;
      from = oldest;
    }
  }

  /**
   * Always 0: KurrentDB has no read horizon. One writer appends to the log and events become
   * readable in log order, so no open transaction can hide an earlier position from readers (the
   * gRPC API has no multi-request transactions). The SQL adapters need the horizon because
   * PostgreSQL commits transactions out of the order their rows were numbered in.
   */
  async horizonAgeSeconds(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#subscriptions].map((s) => s.stop()));
    await this.#client.dispose();
  }

  #isStreamNotFound(error: unknown): boolean {
    return error instanceof this.#kurrent.StreamNotFoundError;
  }

  /** The revision of the stream's last event; -1n when the stream does not exist. */
  async #lastRevision(streamId: string): Promise<bigint> {
    try {
      for await (const resolved of this.#client.readStream(streamId, { direction: "backwards", fromRevision: "end", maxCount: 1 })) {
        if (resolved.event) return resolved.event.revision;
      }
    } catch (error) {
      if (!this.#isStreamNotFound(error)) throw error;
    }
    return -1n;
  }

  /**
   * The result of an earlier append of these very events at this expected revision, read from the
   * stream; undefined when the slots after `expected` hold anything else.
   */
  async #storedRetry(streamId: string, events: readonly NewEvent[], expected: bigint): Promise<AppendResult | undefined> {
    const stored = await this.readStream(streamId, { from: versionOfRevision(expected) + 1n, to: versionOfRevision(expected) + BigInt(events.length) });
    if (stored.length !== events.length || !stored.every((e, i) => sameEventId(e.eventId, events[i]!.eventId))) return undefined;
    const last = stored[stored.length - 1]!;
    return { nextVersion: last.streamPosition, position: last.position, duplicate: true };
  }

  /**
   * The server refused an append: answers a retry that raced its own first attempt (the stream
   * moved on between our look and the append) as a duplicate, and throws for a real conflict.
   */
  async #refused(
    streamId: string,
    events: readonly NewEvent[],
    expectedVersion: ExpectedVersion,
    actual: CurrentStreamState,
  ): Promise<AppendResult> {
    const expected = expectedRevision(expectedVersion);
    const stored = expected === undefined ? undefined : await this.#storedRetry(streamId, events, expected);
    if (stored) return stored;
    throw new WrongExpectedVersion(streamId, expectedVersion, actualVersion(actual));
  }

  async #positionAt(streamId: string, revision: bigint): Promise<GlobalPosition> {
    const version = versionOfRevision(revision);
    const [event] = await this.readStream(streamId, { from: version, to: version });
    if (!event) throw new Error(`KurrentDB reported an append to ${streamId} at revision ${revision} that cannot be read`);
    return event.position;
  }
}

/**
 * Follows $all with KurrentDB's catch-up subscription: it replays from the checkpoint, then the
 * server pushes live events, so nothing polls.
 *
 * - Batches: the client's subscription is a paused object stream; each turn takes what is
 *   buffered (up to `batchSize`) and awaits `handle` before taking more. While a batch is being
 *   handled the buffer fills to `batchSize` and the stream stops pulling from the server
 *   (back-pressure through the gRPC flow control).
 * - Caught up: the server says so with a `caughtUp` message, which arrives in order after the
 *   events before it; `onCaughtUp` runs once every event taken before that message has been
 *   handled. Older servers send no such message, so reaching the head of $all as it
 *   was when the subscription began counts as well, whichever comes first.
 * - The subscription may start at `after` itself (reads of $all start inclusively), so events at
 *   or before the last handled position are dropped, as are KurrentDB's own records.
 * - A handler error or a failed subscription stops it and goes to `onError`; stop() waits for the
 *   batch in progress.
 */
const followNatively = (
  client: KurrentDBClient,
  filter: Kurrent.Filter,
  options: SubscribeOptions,
  headPosition: () => Promise<GlobalPosition>,
): Subscription => {
  const batchSize = options.batchSize ?? 500;
  const stopping = new AbortController();
  const bell = new Doorbell();
  const source: AllStreamSubscription = client.subscribeToAll(
    { fromPosition: readPositionAfter(options.after ?? START), filter },
    { highWaterMark: batchSize },
  );

  let failure: { error: unknown } | undefined;
  let ended = false;
  let taken = 0;
  let handled = 0;
  let lastHandled = options.after ?? START;
  let caughtUpAt: number | undefined;
  let headAtStart: GlobalPosition | undefined;
  let caughtUp = false;

  const fail = (error: unknown) => {
    failure ??= { error };
    bell.ring();
  };
  source.on("readable", () => bell.ring());
  source.on("caughtUp", () => {
    // Everything before the message is taken already or waits in the buffer.
    caughtUpAt ??= taken + source.readableLength;
    bell.ring();
  });
  source.on("error", fail);
  source.on("end", () => {
    ended = true;
    bell.ring();
  });
  headPosition().then((head) => {
    headAtStart = head;
    bell.ring();
  }, fail);

  const noteCaughtUp = () => {
    if (caughtUp) return;
    const serverSaysSo = caughtUpAt !== undefined && handled >= caughtUpAt;
    const headReached = headAtStart !== undefined && comparePositions(lastHandled, headAtStart) >= 0;
    if (serverSaysSo || headReached) {
      caughtUp = true;
      options.onCaughtUp?.();
    }
  };

  const run = async () => {
    for (;;) {
      const ticket = bell.ticket();
      if (stopping.signal.aborted) return;
      if (failure) throw failure.error;
      const items: AllStreamResolvedEvent[] = [];
      while (items.length < batchSize) {
        const item = source.read() as AllStreamResolvedEvent | null;
        if (item === null) break;
        items.push(item);
      }
      if (items.length > 0) {
        taken += items.length;
        const batch: RecordedEvent[] = [];
        let newest = lastHandled;
        for (const item of items) {
          if (keep(item, newest)) {
            const recorded = toRecorded(item.event);
            batch.push(recorded);
            newest = recorded.position;
          }
        }
        if (batch.length > 0) await options.handle(batch);
        lastHandled = newest;
        handled = taken;
        noteCaughtUp();
        continue;
      }
      noteCaughtUp();
      if (ended) throw new Error("the KurrentDB server ended the subscription to $all");
      await bell.wait(ticket, 60_000, stopping.signal);
    }
  };

  const release = async () => {
    await source.unsubscribe().catch(() => undefined);
    source.destroy();
  };

  const done = run()
    .catch((error: unknown) => {
      stopping.abort();
      if (options.onError) options.onError(error);
      else console.error("event store subscription stopped", error);
    })
    .finally(release);

  return {
    done,
    stop: async () => {
      stopping.abort();
      bell.ring();
      await done;
    },
  };
};

/** The event store on KurrentDB. Fails when the server cannot be reached. */
export const createKurrentDbEventStore = async (options: KurrentDbEventStoreOptions): Promise<EventStore> => {
  const kurrent: KurrentModule = await import("@kurrent/kurrentdb-client");
  const client = kurrent.KurrentDBClient.connectionString(options.connectionString);
  const store = new KurrentDbEventStore(client, kurrent, options);
  try {
    await store.headPosition();
  } catch (error) {
    await client.dispose().catch(() => undefined);
    throw new Error(`KurrentDB at ${options.connectionString} cannot be read`, { cause: error });
  }
  return store;
};
