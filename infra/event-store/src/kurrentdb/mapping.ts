import type { AppendStreamState, CurrentStreamState, Position, ReadPosition } from "@kurrent/kurrentdb-client";
import { START, type ExpectedVersion, type GlobalPosition, type JsonObject } from "../port.ts";

/**
 * The pure translations between the port and KurrentDB, kept apart from the client so they can be
 * unit-tested where no server runs.
 *
 * Versions: the port numbers a stream's events from 1 and calls the last one's number the stream's
 * version (0 = no stream). KurrentDB numbers them from 0 and calls the last one's number the
 * revision. So version = revision + 1.
 */

/** The metadata key that carries the event's schema version; stripped again on read. */
export const SCHEMA_VERSION_KEY = "$schemaVersion";

export const versionOfRevision = (revision: bigint): bigint => revision + 1n;

export const revisionOfVersion = (version: bigint): bigint => version - 1n;

/** The `streamState` an append sends for the port's expected version. */
export const toStreamState = (expected: ExpectedVersion): AppendStreamState => {
  if (typeof expected === "bigint") {
    if (expected < 0n) throw new RangeError(`expected version must be >= 0, got ${expected}`);
    return expected === 0n ? "no_stream" : revisionOfVersion(expected);
  }
  switch (expected) {
    case "no_stream":
      return "no_stream";
    case "stream_exists":
      return "stream_exists";
    case "any":
      return "any";
  }
};

/**
 * The revision the stream's last event must have for the append to go ahead (-1n: no stream), when
 * the writer named one; undefined for "any" and "stream_exists". Retried appends are recognised by
 * looking at the slots right after it.
 */
export const expectedRevision = (expected: ExpectedVersion): bigint | undefined => {
  if (typeof expected === "bigint") return revisionOfVersion(expected);
  return expected === "no_stream" ? -1n : undefined;
};

/** The port's `actual` version for KurrentDB's current stream state (0n when it does not exist). */
export const actualVersion = (state: CurrentStreamState): bigint =>
  state === "no_stream" || state < 0n ? 0n : versionOfRevision(state);

export const toGlobalPosition = (position: Position): GlobalPosition => ({ tx: position.commit, seq: position.prepare });

export const toKurrentPosition = (position: GlobalPosition): Position => ({ commit: position.tx, prepare: position.seq });

/** Where a read or subscription of $all starts for a port checkpoint (inclusive on KurrentDB). */
export const readPositionAfter = (after: GlobalPosition): ReadPosition =>
  after.tx === START.tx && after.seq === START.seq ? "start" : toKurrentPosition(after);

/** KurrentDB's own records: system event types (`$metadata`, `$>` links, ...) and `$` streams. */
export const isSystemRecord = (streamId: string, type: string): boolean => streamId.startsWith("$") || type.startsWith("$");

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/** The metadata an append stores: the caller's, plus the schema version under the reserved key. */
export const wrapMetadata = (metadata: JsonObject, schemaVersion: number): Record<string, unknown> => {
  if (Object.hasOwn(metadata, SCHEMA_VERSION_KEY)) {
    throw new Error(`event metadata must not use the key ${SCHEMA_VERSION_KEY}: the KurrentDB adapter reserves it`);
  }
  return { ...metadata, [SCHEMA_VERSION_KEY]: schemaVersion };
};

/**
 * The caller's metadata and the schema version back from what was stored. Events written by
 * others (no reserved key, or metadata that is not a JSON object) read as schema version 1.
 */
export const unwrapMetadata = (stored: unknown): { metadata: JsonObject; schemaVersion: number } => {
  if (!isPlainObject(stored)) return { metadata: {}, schemaVersion: 1 };
  const { [SCHEMA_VERSION_KEY]: version, ...metadata } = stored;
  return { metadata, schemaVersion: typeof version === "number" && Number.isInteger(version) ? version : 1 };
};

/**
 * Event data as the port's JSON object. Ours is always one; anything else someone else wrote
 * (a JSON array or string, or binary data) is wrapped rather than dropped, so a consumer sees it.
 */
export const toJsonObject = (data: unknown): JsonObject => {
  if (isPlainObject(data)) return data;
  if (data instanceof Uint8Array) return { $binary: Buffer.from(data).toString("base64") };
  return { $value: data };
};

/** Event ids are UUIDs; KurrentDB returns them lower-case whatever case they were sent in. */
export const sameEventId = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
