import { createHash } from "node:crypto";

/*
 * The events' hash chain (issue 14, ADR 0021), as a verifier without the database computes it.
 * Each stored event's hash is SHA-256(previous hash in its stream ‖ digest of the event), the
 * first of a stream chaining to 32 zero bytes; the digest covers every stored field, each written
 * as `<byte length>:<text>`, so no two different events spell the same bytes. The texts are the
 * stored ones: jsonb as PostgreSQL prints it, the time in UTC to the microsecond. The database
 * computes the same (es_event_digest in sql/schema.ts) when it appends.
 */

/** One stored event as an export carries it: every field as the text the hash was computed over. */
export interface ChainedEvent {
  readonly streamId: string;
  readonly streamPosition: string;
  readonly eventId: string;
  readonly type: string;
  readonly schemaVersion: string;
  /** jsonb's text form, exactly as stored. */
  readonly data: string;
  readonly metadata: string;
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  readonly recordedAt: string;
  /** The stored hash, hex. */
  readonly hash: string;
}

export const CHAIN_START = Buffer.alloc(32);

const part = (text: string) => `${Buffer.byteLength(text, "utf8")}:${text}`;

export const eventDigest = (event: Omit<ChainedEvent, "hash">): Buffer =>
  createHash("sha256")
    .update(
      part(event.streamId) +
        part(event.streamPosition) +
        part(event.eventId) +
        part(event.type) +
        part(event.schemaVersion) +
        part(event.data) +
        part(event.metadata) +
        part(event.recordedAt),
      "utf8",
    )
    .digest();

export const chainHash = (previous: Buffer, event: Omit<ChainedEvent, "hash">): Buffer =>
  createHash("sha256").update(previous).update(eventDigest(event)).digest();

/** Where the chain breaks first, and why. */
export interface ChainBreak {
  readonly streamId: string;
  readonly streamPosition: string;
  readonly eventId: string;
  readonly reason: "content" | "gap" | "order";
}

export interface ChainReport {
  readonly checked: number;
  readonly firstBreak: ChainBreak | undefined;
}

/**
 * Checks events given in stream order (stream by stream, positions ascending) one at a time, and
 * names the first that does not match: its hash is not what its content and its predecessor give
 * ("content"), or a position is missing or repeated before it ("gap", "order"). The last event of
 * a stream cut off leaves no trace here: the global chain's head covers that (ADR 0021).
 */
export const createChainVerifier = () => {
  let checked = 0;
  let stream: string | undefined;
  let previous: Buffer = CHAIN_START;
  let position = 0n;
  return {
    get checked() {
      return checked;
    },
    check(event: ChainedEvent): ChainBreak | undefined {
      if (event.streamId !== stream) {
        stream = event.streamId;
        previous = CHAIN_START;
        position = 0n;
      }
      const at = BigInt(event.streamPosition);
      const where = { streamId: event.streamId, streamPosition: event.streamPosition, eventId: event.eventId };
      if (at <= position) return { ...where, reason: "order" };
      if (at !== position + 1n) return { ...where, reason: "gap" };
      const expected = chainHash(previous, event);
      if (expected.toString("hex") !== event.hash) return { ...where, reason: "content" };
      previous = expected;
      position = at;
      checked += 1;
      return undefined;
    },
  };
};

/** Verifies events in stream order; stops at the first break. */
export const verifyChain = (events: Iterable<ChainedEvent>): ChainReport => {
  const verifier = createChainVerifier();
  for (const event of events) {
    const broken = verifier.check(event);
    if (broken) return { checked: verifier.checked, firstBreak: broken };
  }
  return { checked: verifier.checked, firstBreak: undefined };
};
