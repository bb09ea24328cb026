/**
 * The event store port. Every adapter (PostgreSQL, PGlite, KurrentDB) implements it and passes
 * the same contract suite (test/contract.ts). It knows nothing of event schemas: data and
 * metadata are JSON; decoding and upcasting belong to the `events` package.
 */

/**
 * A place in the global log. On PostgreSQL it is (committing transaction id, sequence), the pair
 * readers order and checkpoint on; on KurrentDB it is (commit, prepare). Compare with
 * `comparePositions`, never by one half alone.
 */
export interface GlobalPosition {
  readonly tx: bigint;
  readonly seq: bigint;
}

/** Before the first event of the log. */
export const START: GlobalPosition = Object.freeze({ tx: 0n, seq: 0n });

export const comparePositions = (a: GlobalPosition, b: GlobalPosition): -1 | 0 | 1 =>
  a.tx < b.tx ? -1 : a.tx > b.tx ? 1 : a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0;

/** The text form clients carry (e.g. for read-your-writes): `"<tx>.<seq>"`. */
export const formatPosition = (p: GlobalPosition): string => `${p.tx}.${p.seq}`;

export const parsePosition = (text: string): GlobalPosition | undefined => {
  const match = /^(\d{1,20})\.(\d{1,20})$/.exec(text);
  return match ? { tx: BigInt(match[1]!), seq: BigInt(match[2]!) } : undefined;
};

/**
 * What the writer expects of the stream. A number is the exact version: the position of the
 * stream's last event, the first event being 1 (so 0n means the stream must not exist yet).
 */
export type ExpectedVersion = bigint | "no_stream" | "stream_exists" | "any";

export type JsonObject = { readonly [key: string]: unknown };

export interface NewEvent {
  /** Unique for all time: appending an event whose id is already stored is a no-op. */
  readonly eventId: string;
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: JsonObject;
  readonly metadata: JsonObject;
}

export interface RecordedEvent extends NewEvent {
  readonly streamId: string;
  /** 1 for the stream's first event. */
  readonly streamPosition: bigint;
  readonly position: GlobalPosition;
  readonly recordedAt: Date;
}

export interface AppendResult {
  /** The stream's version after the append (the last event's stream position). */
  readonly nextVersion: bigint;
  /** Global position of the last event appended; what a client waits for to read its writes. */
  readonly position: GlobalPosition;
  /** True when every event was already stored (a retried append): nothing was written. */
  readonly duplicate: boolean;
}

/** The stream was not at the version the writer expected. Nothing was written. */
export class WrongExpectedVersion extends Error {
  readonly _tag = "WrongExpectedVersion";
  readonly streamId: string;
  readonly expected: ExpectedVersion;
  /** The stream's version when the append was refused; 0n when it does not exist. */
  readonly actual: bigint;
  constructor(streamId: string, expected: ExpectedVersion, actual: bigint) {
    super(`Stream ${streamId} is at version ${actual}, expected ${String(expected)}`);
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}

export interface ReadStreamOptions {
  /** First stream position to read (default 1). */
  readonly from?: bigint;
  /** Last stream position to read, inclusive (default: to the end). */
  readonly to?: bigint;
}

export interface ReadAllOptions {
  /** Read events strictly after this position (default: from the start). */
  readonly after?: GlobalPosition;
  readonly limit: number;
}

export interface SubscribeOptions {
  /** Deliver events strictly after this position (default: from the start). */
  readonly after?: GlobalPosition;
  readonly batchSize?: number;
  /**
   * Receives each batch in log order. The subscription waits for it before handing over the
   * next (which it may already be reading), and stops (calling `onError`) if it throws: a
   * consumer must never skip what it failed to handle.
   */
  readonly handle: (events: readonly RecordedEvent[]) => Promise<void>;
  /** Called once the subscription has delivered everything that existed when it began. */
  readonly onCaughtUp?: () => void;
  readonly onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Stops reading; resolves once any batch in progress has been handled. */
  stop(): Promise<void>;
  /** Resolves when the subscription ends: after stop() or a handler error. */
  readonly done: Promise<void>;
}

export interface EventStore {
  /** Appends events to one stream atomically, if the stream is at the expected version. */
  append(
    streamId: string,
    events: readonly NewEvent[],
    options: { readonly expectedVersion: ExpectedVersion },
  ): Promise<AppendResult>;
  /** The stream's events in order; an empty list when it does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** A page of the global log in order, holding back events that could still be preceded. */
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  /** Follows the global log: catch up from a position, then stay live. */
  subscribe(options: SubscribeOptions): Subscription;
  /** Position of the last event readers can see now; START for an empty log. */
  headPosition(): Promise<GlobalPosition>;
  /**
   * Seconds since the oldest transaction that still holds the read horizon back began (0 when
   * none): while it stays open, readers of the global log see nothing newer.
   */
  horizonAgeSeconds(): Promise<number>;
  close(): Promise<void>;
}
