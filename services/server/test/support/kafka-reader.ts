import { randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";

/*
 * What a consumer on the other side sees (issue 15): every record of a topic, read with kafkajs
 * (the card's client, what other teams consume with) in a fresh consumer group from the start.
 */

export interface ReadRecord {
  readonly partition: number;
  readonly offset: string;
  readonly key: string;
  readonly value: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Reads the topic from the beginning until `expected` records have arrived and nothing more came
 * for `quietMs`, or until `timeoutMs` has passed (then it answers what it has).
 */
export const readTopic = async (brokers: string, topic: string, { expected, quietMs = 1_500, timeoutMs = 120_000 }: { expected: number; quietMs?: number; timeoutMs?: number }): Promise<ReadRecord[]> => {
  const kafka = new Kafka({ clientId: "test-reader", brokers: [brokers], logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `test-reader-${randomUUID()}`, maxBytes: 16 * 1024 * 1024 });
  const records: ReadRecord[] = [];
  let lastArrival = Date.now();
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachBatchAutoResolve: true,
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = String(value);
          records.push({ partition: batch.partition, offset: message.offset, key: message.key?.toString() ?? "", value: message.value?.toString() ?? "", headers });
        }
        lastArrival = Date.now();
      },
    });
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && !(records.length >= expected && Date.now() - lastArrival >= quietMs)) await new Promise((resolve) => setTimeout(resolve, 100));
    return records;
  } finally {
    await consumer.disconnect();
  }
};

/**
 * Deletes the topic if the broker has it, and settles once the broker no longer lists it: a file
 * that shares one broker among its tests gives each a topic that starts empty (the relay creates
 * it again when it starts).
 */
export const deleteTopic = async (brokers: string, topic: string, { timeoutMs = 60_000 }: { timeoutMs?: number } = {}): Promise<void> => {
  const admin = new Kafka({ clientId: "test-admin", brokers: [brokers], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) return;
    await admin.deleteTopics({ topics: [topic], timeout: timeoutMs });
    const deadline = Date.now() + timeoutMs;
    while ((await admin.listTopics()).includes(topic)) {
      if (Date.now() > deadline) throw new Error(`the broker still lists ${topic} ${timeoutMs / 1000} s after deleting it`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await admin.disconnect();
  }
};
