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
      await producer.send({ messages: messages.map(({ key, value, headers }) => ({ topic, key, value, headers: { ...headers } })) });
    },
    close: () => producer.close(),
  };
};
