import { randomUUID } from "node:crypto";
import {
  WrongExpectedVersion,
  formatPosition,
  type EventStore,
  type GlobalPosition,
  type RecordedEvent,
} from "@etd/event-store";
import * as Result from "effect/Result";
import { decodeEvent, encodeEvent, parseStreamName, type AnyEvent, type EventMetadata } from "@etd/events";
import { inSpan, type SpanHandle } from "@etd/telemetry";
import type { Decider } from "./shared/decider.ts";
import { isRefusal, refuseChanged, type Refusal } from "./shared/refusal.ts";

/*
 * Load, decide, append (DESIGN §1). The decider is the only place where rules live; this module
 * only folds a stream, asks the decider, and appends with the version it folded. When another
 * writer got there first the whole cycle runs again on the new state, so a lost race ends as the
 * decider's own refusal ("Order 100234 was assigned to Maria at 10:04:12 UTC."), never as a bare
 * version error.
 *
 * A click on a page that shows an older version of the stream (`expectedVersion`) is different:
 * the user decided on what they saw, so when the stream has moved on nothing is decided and the
 * answer is "changed", with the version now, for the page to show what happened and ask again.
 */

export type CommandOutcome =
  | {
      readonly ok: true;
      /** Global position of the last event written (or of the stream's head when nothing was). */
      readonly position: string | undefined;
      readonly events: readonly AnyEvent[];
    }
  | { readonly ok: false; readonly refusal: Refusal };

/** Raised when a stored event cannot be read back: a bug or a corrupted store, never a user's fault. */
export class UnreadableStream extends Error {
  constructor(streamId: string, detail: string) {
    super(`Stream ${streamId} holds an unreadable event: ${detail}`);
  }
}

export interface LoadedStream<State> {
  readonly state: State;
  readonly version: bigint;
  readonly head: GlobalPosition | undefined;
}

export const loadStream = async <Command, State, E extends AnyEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<Command, State, E>,
): Promise<LoadedStream<State>> => {
  const recorded = await store.readStream(streamId);
  let state = decider.initialState;
  for (const raw of recorded) state = decider.evolve(state, decodeStored<E>(streamId, raw));
  const last = recorded.at(-1);
  return { state, version: last?.streamPosition ?? 0n, head: last?.position };
};

const decodeStored = <E extends AnyEvent>(streamId: string, raw: RecordedEvent): E => {
  const decoded = decodeEvent(raw);
  if (Result.isFailure(decoded)) throw new UnreadableStream(streamId, decoded.failure.message);
  // Stream names are per aggregate (order-, staff-, gateways), so what a stream holds is its
  // decider's; the catalogue has already checked the event's shape.
  return decoded.success as E;
};

/** How many times a command is decided again after losing a race before giving up. */
const MAX_ATTEMPTS = 20;

export interface HandleOptions {
  readonly store: EventStore;
  readonly streamId: string;
  /** Added to every event: who, why, when. `occurredAt` is filled in per attempt. */
  readonly metadata: Omit<EventMetadata, "occurredAt">;
  readonly now?: () => Date;
  /**
   * The stream version the user acted on (the order page's `version`). When the stream is at
   * another version, a command the decider accepts on the current state is refused as "changed"
   * and nothing is appended; one it refuses gets its refusal. Without it, a lost race is decided
   * again on the newer state.
   */
  readonly expectedVersion?: bigint;
  /**
   * The stream as the caller has just folded it, to decide the first time without reading it
   * again (a reactor that read it to choose the command); a lost race reads it afresh.
   */
  readonly loaded?: Pick<LoadedStream<unknown>, "state" | "version">;
}

/**
 * A span around the whole command (issue 28), in the trace of the click its metadata names: the
 * request's, or, in a reactor, that of the click whose event it follows.
 */
export const handleCommand = <Command, State, E extends AnyEvent>(decider: Decider<Command, State, E>, command: Command, options: HandleOptions): Promise<CommandOutcome> => {
  const { streamId, metadata } = options;
  const ref = parseStreamName(streamId);
  const attributes = {
    "etd.stream_id": streamId,
    ...(ref?.category === "order" ? { "etd.order_id": ref.orderId } : {}),
    ...(typeof (command as { type?: unknown }).type === "string" ? { "etd.command": (command as { type: string }).type } : {}),
    "etd.correlation_id": metadata.correlationId,
    ...(metadata.causationId === undefined ? {} : { "etd.causation_id": metadata.causationId }),
  };
  return inSpan("command", { correlationId: metadata.correlationId, attributes }, (span) => decideAndAppend(decider, command, options, span));
};

const decideAndAppend = async <Command, State, E extends AnyEvent>(
  decider: Decider<Command, State, E>,
  command: Command,
  { store, streamId, metadata, now = () => new Date(), expectedVersion, loaded }: HandleOptions,
  span: SpanHandle,
): Promise<CommandOutcome> => {
  for (let attempt = 1; ; attempt++) {
    const { state, version, head } =
      attempt === 1 && loaded !== undefined ? { ...(loaded as Pick<LoadedStream<State>, "state" | "version">), head: undefined } : await loadStream(store, streamId, decider);
    const decision = span.span ? await inSpan("decide", {}, (decided) => Promise.resolve(describeDecision(decided, decider.decide(command, state)))) : decider.decide(command, state);
    span.set({ "etd.attempts": attempt });
    // The decider's own refusal first: who may not act at all (read-only, not found, erased) is
    // told so, and is never shown what changed since (the "changed" answer lists the history).
    if (isRefusal(decision)) return { ok: false, refusal: decision };
    // After a lost race the stream is past expectedVersion, so the next pass ends here too: a
    // stale click is never applied to state its user did not see.
    if (expectedVersion !== undefined && version !== expectedVersion) {
      return { ok: false, refusal: refuseChanged(version) };
    }
    if (decision.length === 0) {
      return { ok: true, position: head ? formatPosition(head) : undefined, events: [] };
    }
    const occurredAt = now().toISOString() as EventMetadata["occurredAt"];
    const events = decision.map((event) => ({ ...event, metadata: { ...metadata, occurredAt } }));
    try {
      const encoded = events.map((event) => ({ eventId: randomUUID(), ...encodeEvent(event) }));
      const appendOptions = { expectedVersion: version === 0n ? ("no_stream" as const) : version };
      const result = span.span
        ? await inSpan("append", { attributes: { "etd.event_types": encoded.map((e) => e.type) } }, async (appended) => {
            const written = await store.append(streamId, encoded, appendOptions);
            appended.set({ "etd.position": formatPosition(written.position) });
            return written;
          })
        : await store.append(streamId, encoded, appendOptions);
      // A decider's events plus metadata are whole catalogue events; TypeScript cannot see
      // through the distributive WithoutMetadata.
      return { ok: true, position: formatPosition(result.position), events: events as unknown as readonly AnyEvent[] };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersion) || attempt >= MAX_ATTEMPTS) throw error;
      // Someone else wrote first: decide again on what they wrote (or, with expectedVersion,
      // answer "changed" on the next pass).
    }
  }
};

/** The decision, with what it decided on the span: the events' types, or the refusal's reason. */
const describeDecision = <D extends ReadonlyArray<{ readonly type: string }> | Refusal>(span: SpanHandle, decision: D): D => {
  span.set(isRefusal(decision) ? { "etd.refusal": decision.reason } : { "etd.event_types": decision.map((event) => event.type) });
  return decision;
};
