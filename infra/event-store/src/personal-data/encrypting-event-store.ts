import type { AppendResult, EventStore, JsonObject, NewEvent, RecordedEvent } from "../port.ts";
import { isSealed, seal, unseal, UnsealError } from "./cipher.ts";
import type { KeyStore } from "./key-store.ts";

/*
 * The contract (events/src/shared/personal-data.ts): an event keeps all of its personal data in
 * `data.personal` and nowhere else; once the stream's key is gone, readers get `{ erased: true }`
 * there instead.
 */
const ERASED: JsonObject = Object.freeze({ erased: true });

const isErasedMarker = (value: JsonObject): boolean =>
  Object.keys(value).length === 1 && value.erased === true;

const isPlainObject = (value: unknown): value is JsonObject => {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** Personal data to seal: a plain object other than the erased marker (which carries nothing to hide). */
const toSeal = (event: NewEvent): JsonObject | undefined => {
  const personal = event.data.personal;
  return isPlainObject(personal) && !isErasedMarker(personal) ? personal : undefined;
};

/** Stored personal data that failed authentication: tampered, moved, or corrupt. Never read as erased. */
export class PersonalDataUnreadable extends Error {
  readonly _tag = "PersonalDataUnreadable";
  readonly streamId: string;
  readonly eventId: string;
  constructor(streamId: string, eventId: string, cause: UnsealError) {
    super(`The personal data of event ${eventId} in stream ${streamId} cannot be read: ${cause.message}`, { cause });
    this.streamId = streamId;
    this.eventId = eventId;
  }
}

export interface EncryptingEventStore extends EventStore {
  /**
   * Erases the personal data of every event of the stream by destroying the stream's key; an
   * append in flight that already holds the key writes data no one can read. Idempotent.
   * Afterwards, appending new personal data to the stream fails with `PersonalDataForgotten`;
   * events without personal data still append.
   *
   * Call it only AFTER the event that records the permanent delete is in the log, from a reactor
   * that follows the log (a refused delete must erase nothing), and again after any crash: it is
   * idempotent. That event must carry no personal data, and its decider must not need any.
   */
  forget(streamId: string): Promise<void>;
}

/** The events with their personal data sealed under the stream's key. */
export const sealEvents = (key: Buffer, streamId: string, events: readonly NewEvent[]): NewEvent[] =>
  events.map((event): NewEvent => {
    const personal = toSeal(event);
    if (!personal) return event;
    return { ...event, data: { ...event.data, personal: seal(key, { streamId, eventId: event.eventId }, personal) } };
  });

/**
 * Appends personal data to a stream expected to be new, its key created in the append's own
 * transaction; undefined when the stream has a key already, for the usual path to seal with it.
 */
export type AppendToNewStream = (streamId: string, events: readonly NewEvent[], options: { readonly expectedVersion: "no_stream" }) => Promise<AppendResult | undefined>;

/**
 * Wraps an event store so that `data.personal` is encrypted with the stream's key on append and
 * decrypted on every read (readStream, readAll, subscribe); `{ erased: true }` once the key is
 * destroyed. Events without personal data, and everything else the store does, pass through.
 *
 * A retried append stays idempotent: the new random IV makes the ciphertext differ, but the
 * store recognises a retry by event id alone. Closing it closes the wrapped store.
 *
 * A stream's key is created before the append that first seals with it (one rolled back leaves
 * a key that seals nothing, never data without its key), or, given `appendToNewStream`, in that
 * append's own transaction for a stream expected to be new.
 */
export const encryptingEventStore = (store: EventStore, keys: KeyStore, appendToNewStream?: AppendToNewStream): EncryptingEventStore => {
  const reveal = async (events: readonly RecordedEvent[]): Promise<RecordedEvent[]> => {
    const streams = new Set(events.filter((e) => isSealed(e.data.personal)).map((e) => e.streamId));
    if (streams.size === 0) return [...events];
    const streamKeys = new Map(
      await Promise.all([...streams].map(async (streamId) => [streamId, await keys.existingKey(streamId)] as const)),
    );
    return events.map((event) => {
      const sealed = event.data.personal;
      if (!isSealed(sealed)) return event;
      const key = streamKeys.get(event.streamId);
      let personal = ERASED;
      if (key) {
        try {
          personal = unseal(key, event, sealed);
        } catch (error) {
          if (error instanceof UnsealError) throw new PersonalDataUnreadable(event.streamId, event.eventId, error);
          throw error;
        }
      }
      return { ...event, data: { ...event.data, personal } };
    });
  };

  return {
    append: async (streamId, events, options) => {
      if (!events.some((e) => toSeal(e) !== undefined)) return store.append(streamId, events, options);
      if (options.expectedVersion === "no_stream" && appendToNewStream) {
        const appended = await appendToNewStream(streamId, events, { expectedVersion: "no_stream" });
        if (appended) return appended;
      }
      return store.append(streamId, sealEvents(await keys.keyFor(streamId), streamId, events), options);
    },
    readStream: async (streamId, options) => reveal(await store.readStream(streamId, options)),
    readAll: async (options) => reveal(await store.readAll(options)),
    subscribe: (options) => store.subscribe({ ...options, handle: async (events) => options.handle(await reveal(events)) }),
    headPosition: () => store.headPosition(),
    horizonAgeSeconds: () => store.horizonAgeSeconds(),
    close: () => store.close(),
    forget: (streamId) => keys.destroy(streamId),
  };
};
