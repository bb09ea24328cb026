import { hash as sha } from "node:crypto";

/*
 * The events' two hash chains (issue 14, ADR 0021), as a verifier without the database computes
 * them. Each stored event's `hash` is SHA-256(its stream predecessor's hash ‖ digest of the event),
 * the first of a stream chaining to 32 zero bytes; the digest covers every stored field, each
 * written as `<byte length>:<text>`, so no two different events spell the same bytes. The texts
 * are the stored ones: jsonb as PostgreSQL prints it, the time in UTC to the microsecond. The
 * global chain links every event in log order: `chain` = SHA-256(the previous event's chain ‖ its
 * hash). The database computes the same (es_event_digest, es_stream_hashes and es_seal in
 * sql/schema.ts).
 */

/** One stored event as the chains cover it: every field as the text the hash was computed over. */
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
  /** The stored stream hash, hex. */
  readonly hash: string;
  /** The stored global link, hex; null while the sealer has not reached the event yet. */
  readonly chain: string | null;
}

/**
 * An event as an export carries it: with its predecessors' hashes, so that a file holding part of
 * the log (one order, a time range) still verifies line by line.
 */
export interface ExportedEvent extends ChainedEvent {
  /** The hash of the event before it in its stream (zeros for the first). */
  readonly previous: string;
  /** The global link of the event before it in the log; null when this one is not sealed yet. */
  readonly previousChain: string | null;
}

const START_HEX = "0".repeat(64);

const part = (text: string) => `${Buffer.byteLength(text, "utf8")}:${text}`;

/** The bytes an event's digest is taken over. */
export const digestInput = (event: Omit<ChainedEvent, "hash" | "chain">): string =>
  part(event.streamId) +
  part(event.streamPosition) +
  part(event.eventId) +
  part(event.type) +
  part(event.schemaVersion) +
  part(event.data) +
  part(event.metadata) +
  part(event.recordedAt);

/*
 * Hashing as the verifier does it, several times faster than the obvious way (issue 28, P13):
 * one-shot hashes (createHash costs more for inputs this small), each answering as a string,
 * since a Buffer made for each result costs several times the SHA-256 of these few bytes; and
 * each 64-byte link input written into one buffer kept for the purpose instead of a concatenation.
 * Hashes travel as lowercase hex, the form they are stored, exported and compared in.
 */
const linkInput = Buffer.alloc(64);

/** SHA-256(previous ‖ next) for two hashes given as hex; hex. */
const link = (previousHex: string, next: string, nextEncoding: "hex" | "binary"): string => {
  // A claimed hash that is not 64 hex digits (an export's) must not leave the last call's bytes.
  linkInput.fill(0, linkInput.write(previousHex, 0, 32, "hex"), 32);
  linkInput.write(next, 32, 32, nextEncoding);
  return sha("sha256", linkInput, "hex");
};

/** An event's stream hash, hex, from its predecessor's. */
const chainHash = (previousHex: string, event: Omit<ChainedEvent, "hash" | "chain">): string =>
  // "binary" (latin1): the digest's 32 bytes one character each, written back byte for byte.
  link(previousHex, sha("sha256", digestInput(event), "binary"), "binary");

/**
 * What breaks first, and why:
 * - content: the event's hash is not what its stored fields and its stream predecessor give
 *   (a changed byte, or a predecessor changed, moved or removed);
 * - gap / order: a stream position missing or repeated before it;
 * - chain: its global link is not what the event before it in the log gives (an event before
 *   it removed, moved or added);
 * - unsealed: it has no global link although later events have (added after the sealing);
 * - truncated: the log ends before the end of its global chain (its last events removed).
 */
export interface ChainBreak {
  readonly streamId: string;
  readonly streamPosition: string;
  readonly eventId: string;
  readonly reason: "content" | "gap" | "order" | "chain" | "unsealed" | "truncated";
}

export interface ChainReport {
  /** Events whose hashes matched. */
  readonly checked: number;
  /** Of those, the ones the global chain covers. */
  readonly sealed: number;
  readonly firstBreak: ChainBreak | undefined;
  /** The last global link checked, hex: the head to compare with an anchor kept elsewhere. */
  readonly head: string | null;
}

export interface VerifierOptions {
  /**
   * The events are a part of the log, not all of it from the start: the first event met of each
   * stream, and the first of the log, are taken as anchors (their `previous`, `previousChain`).
   */
  readonly partial: boolean;
  /** The events are consecutive in log order (the whole log, a time range), not one order's. */
  readonly consecutive: boolean;
}

/** Checks events one at a time in log order and names the first that does not match. */
export const createChainVerifier = (options: VerifierOptions = { partial: false, consecutive: true }) => {
  // Each stream's last position and hash, updated in place: one object per stream, not per event.
  const streams = new Map<string, { position: bigint; hash: string }>();
  let checked = 0;
  let sealed = 0;
  let lastChain: string | undefined = options.partial ? undefined : START_HEX;
  let firstUnsealed: ChainBreak | undefined;

  const check = (event: ChainedEvent | ExportedEvent): ChainBreak | undefined => {
    const at = BigInt(event.streamPosition);
    const known = streams.get(event.streamId);
    let position = 0n;
    let previous = START_HEX;
    if (known) {
      position = known.position;
      previous = known.hash;
    } else if (options.partial && "previous" in event) {
      position = at - 1n;
      previous = event.previous;
    }
    if (at <= position) return breakAt(event, "order");
    if (at !== position + 1n) return breakAt(event, "gap");
    const hash = chainHash(previous, event);
    if (hash !== event.hash) return breakAt(event, "content");
    if (known) {
      known.position = at;
      known.hash = hash;
    } else {
      streams.set(event.streamId, { position: at, hash });
    }

    if (event.chain === null) {
      firstUnsealed ??= breakAt(event, "unsealed");
    } else {
      if (options.consecutive && firstUnsealed) return firstUnsealed;
      const claimedChain = "previousChain" in event ? event.previousChain : undefined;
      const previousChain = options.consecutive && lastChain ? lastChain : (claimedChain || START_HEX);
      const chain = link(previousChain, hash, "hex");
      if (chain !== event.chain) return breakAt(event, "chain");
      lastChain = chain;
      sealed += 1;
    }
    checked += 1;
    return undefined;
  };

  return {
    check,
    get sealed() {
      return sealed;
    },
    /** The last global link checked, hex. */
    get head() {
      return lastChain;
    },
    report: (firstBreak: ChainBreak | undefined): ChainReport => ({
      checked,
      sealed,
      firstBreak,
      head: lastChain && sealed > 0 ? lastChain : options.partial ? null : START_HEX,
    }),
  };
};

const breakAt = (event: ChainedEvent, reason: ChainBreak["reason"]): ChainBreak => ({
  streamId: event.streamId,
  streamPosition: event.streamPosition,
  eventId: event.eventId,
  reason,
});

/** Verifies events given in log order; stops at the first break. */
export const verifyChain = (events: Iterable<ChainedEvent | ExportedEvent>, options?: VerifierOptions): ChainReport => {
  const verifier = createChainVerifier(options);
  for (const event of events) {
    const broken = verifier.check(event);
    if (broken) return verifier.report(broken);
  }
  return verifier.report(undefined);
};
