import { Admin, Producer, stringSerializers } from "@platformatic/kafka";
import type { OutgoingMessage, Publisher } from "./publisher.ts";

/*
 * The Publisher on Apache Kafka through @platformatic/kafka (chosen over kafkajs by measurement,
 * ADR 0022). The producer is idempotent, so the broker drops the duplicates of its own retries
 * within one producer session and keeps each partition's order; acks = -1 waits for every
 * in-sync replica. A new session (a restart) may still repeat what the last one sent unacknowledged,
 * which is why every message carries its event id.
 */

export interface KafkaSettings {
  readonly brokers: readonly string[];
  readonly clientId: string;
}

const ALL_IN_SYNC_REPLICAS = -1;
const PUBLISH_TIMEOUT_MS = 60_000;

/** The client wraps the broker's answer (MESSAGE_TOO_LARGE, …) in general errors: name them all. */
const reasons = (error: unknown): string => {
  const found: string[] = [];
  const visit = (value: unknown, depth: number) => {
    if (!(value instanceof Error) || depth > 4) return;
    if (!found.includes(value.message)) found.push(value.message);
    visit(value.cause, depth + 1);
    const inner = (value as Error & { errors?: unknown }).errors;
    if (Array.isArray(inner)) for (const each of inner) visit(each, depth + 1);
  };
  visit(error, 0);
  return found.join("; ") || String(error);
};

export const createKafkaPublisher = ({ brokers, clientId }: KafkaSettings): Publisher => {
  const producer = new Producer({
    clientId,
    bootstrapBrokers: [...brokers],
    serializers: stringSerializers,
    idempotent: true,
    acks: ALL_IN_SYNC_REPLICAS,
    autocreateTopics: false,
    retries: 5,
  });
  return {
    ensureTopic: async (topic, partitions) => {
      const admin = new Admin({ clientId: `${clientId}-admin`, bootstrapBrokers: [...brokers] });
      try {
        if ((await admin.listTopics()).includes(topic)) return;
        // The broker's default replication factor: a production cluster sets its own.
        await admin.createTopics({ topics: [topic], partitions, replicas: -1 }).catch(async (error: unknown) => {
          // Another relay created it in between.
          if (!(await admin.listTopics()).includes(topic)) throw error;
        });
      } finally {
        await admin.close();
      }
    },
    publish: async (topic, messages: readonly OutgoingMessage[]) => {
      if (messages.length === 0) return;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          producer.send({ messages: messages.map(({ key, value, headers }) => ({ topic, key, value, headers: { ...headers } })) }),
          // A broker that accepts connections but never answers would hold the relay (and its
          // lease) for ever: give up, and let the caller publish the batch again.
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`Kafka did not acknowledge ${messages.length} messages within ${PUBLISH_TIMEOUT_MS / 1000} s`)), PUBLISH_TIMEOUT_MS))),
        ]);
      } catch (error) {
        throw new Error(`Publishing ${messages.length} messages to ${topic} failed: ${reasons(error)}`, { cause: error });
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => producer.close(),
  };
};
