import { kafkaUnavailable, startKafkaBroker, type KafkaBroker } from "@etd/infra/kafka-broker";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaPublisher } from "../src/index.ts";

/*
 * The Publisher on a real broker (issue 15): what it promises the relay. A publish resolves once
 * the broker holds the messages, in order per key, with their headers; it rejects, and does not
 * hang, when the broker is gone, so the relay keeps its checkpoint and publishes again.
 */

const unavailable = kafkaUnavailable();
if (unavailable) console.warn(`SKIPPED: the Publisher's tests need a Kafka broker: ${unavailable}`);

describe.skipIf(unavailable !== undefined)("the Kafka Publisher (@platformatic/kafka, ADR 0022)", () => {
  let broker: KafkaBroker;
  beforeAll(async () => {
    broker = await startKafkaBroker();
  });
  afterAll(async () => {
    await broker?.stop();
  });

  const admin = () => new Kafka({ clientId: "publisher-test", brokers: [broker.brokers], logLevel: logLevel.NOTHING }).admin();

  it("creates the topic once with the partitions asked for, and leaves an existing one as it is", async () => {
    const publisher = createKafkaPublisher({ brokers: [broker.brokers], clientId: "publisher-test" });
    try {
      await publisher.ensureTopic("created.v1", 3);
      await publisher.ensureTopic("created.v1", 5);
      const kafka = admin();
      await kafka.connect();
      const [topic] = (await kafka.fetchTopicMetadata({ topics: ["created.v1"] })).topics;
      await kafka.disconnect();
      expect(topic?.partitions).toHaveLength(3);
    } finally {
      await publisher.close();
    }
  });

  it("a resolved publish is on the broker: every message, each key's in order, with its headers", async () => {
    const publisher = createKafkaPublisher({ brokers: [broker.brokers], clientId: "publisher-test" });
    try {
      await publisher.ensureTopic("ordered.v1", 3);
      const messages = Array.from({ length: 300 }, (_, i) => ({ key: `order-${i % 7}`, value: JSON.stringify({ n: i }), headers: { "event-id": `event-${i}` } }));
      await publisher.publish("ordered.v1", messages.slice(0, 150));
      await publisher.publish("ordered.v1", messages.slice(150));
      const kafka = admin();
      await kafka.connect();
      const offsets = await kafka.fetchTopicOffsets("ordered.v1");
      await kafka.disconnect();
      // Acknowledged means stored: the partitions' ends add up to every message, before any consumer reads.
      expect(offsets.reduce((sum, partition) => sum + Number(partition.high), 0)).toBe(300);

      const consumer = new Kafka({ clientId: "publisher-test", brokers: [broker.brokers], logLevel: logLevel.NOTHING }).consumer({ groupId: "publisher-test" });
      const read: { key: string; n: number; eventId: string }[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic: "ordered.v1", fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          read.push({ key: message.key!.toString(), n: (JSON.parse(message.value!.toString()) as { n: number }).n, eventId: message.headers!["event-id"]!.toString() });
        },
      });
      for (const started = Date.now(); read.length < 300 && Date.now() - started < 30_000; ) await new Promise((resolve) => setTimeout(resolve, 50));
      await consumer.disconnect();
      expect(read).toHaveLength(300);
      for (let k = 0; k < 7; k++) {
        const ofKey = read.filter((r) => r.key === `order-${k}`);
        expect(ofKey.map((r) => r.n)).toEqual(messages.flatMap((m, i) => (m.key === `order-${k}` ? [i] : [])));
        expect(ofKey.every((r) => r.eventId === `event-${r.n}`)).toBe(true);
      }
    } finally {
      await publisher.close();
    }
  });

  it("rejects when the broker cannot be reached, instead of resolving or hanging", async () => {
    const publisher = createKafkaPublisher({ brokers: ["127.0.0.1:1"], clientId: "publisher-test" });
    try {
      await expect(publisher.publish("nowhere.v1", [{ key: "k", value: "v", headers: {} }])).rejects.toThrow();
    } finally {
      await publisher.close().catch(() => undefined);
    }
  });
});
