/*
 * The Publisher port (DESIGN §8): what the relay needs from a message broker, nothing more. A
 * publish resolves only once the broker has acknowledged every message (acks from all in-sync
 * replicas), and rejects otherwise: the caller moves its checkpoint only after it resolves, and
 * on a rejection publishes the same messages again (consumers de-duplicate by the event id).
 */

export interface OutgoingMessage {
  /** Decides the partition: one key's messages keep their order. */
  readonly key: string;
  readonly value: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface Publisher {
  /** Creates the topic when it does not exist yet; an existing one is left as it is. */
  ensureTopic(topic: string, partitions: number): Promise<void>;
  /** Publishes in order and resolves once the broker acknowledged them all. */
  publish(topic: string, messages: readonly OutgoingMessage[]): Promise<void>;
  close(): Promise<void>;
}
