/**
 * Keys for crypto-shredding (DESIGN §3): one AES-256 key per stream (per order), kept apart from
 * the events. Destroying a stream's key erases the personal data in all of its events at once,
 * without touching the append-only log.
 *
 * A destroyed key stays destroyed: the store remembers that the stream was forgotten, so no
 * later append can create a fresh key under which new personal data would be readable again.
 */
export interface KeyStore {
  /**
   * The stream's key, created on first use. Concurrent first calls (in any process) all get the
   * same key. Fails with `PersonalDataForgotten` once the key has been destroyed.
   */
  keyFor(streamId: string): Promise<Buffer>;
  /** The stream's key if it has one; undefined when it never had one or it was destroyed. */
  existingKey(streamId: string): Promise<Buffer | undefined>;
  /** Destroys the stream's key for good (also for a stream that never had one). Idempotent. */
  destroy(streamId: string): Promise<void>;
}

/** Refused: new personal data for a stream whose key was destroyed (its order was permanently deleted). */
export class PersonalDataForgotten extends Error {
  readonly _tag = "PersonalDataForgotten";
  readonly streamId: string;
  constructor(streamId: string) {
    super(`The personal data of stream ${streamId} was permanently erased; it cannot take new personal data`);
    this.streamId = streamId;
  }
}
