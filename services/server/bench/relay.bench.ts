import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { decodeEvent, type OrderEvent } from "@etd/events";
import { startKafkaBroker } from "@etd/infra/kafka-broker";
import { createTestDatabase } from "@etd/infra/test-database";
import { createKafkaPublisher, type OutgoingMessage } from "@etd/kafka";
import * as Result from "effect/Result";
import { reactorLag } from "@etd/event-store";
import { ORDERS_V1_PARTITIONS, RELAY_BATCH, RELAY_REACTOR } from "@etd/relay";
import { toKafkaMessage, toOrdersV1 } from "@etd/relay";
import { openRuntime } from "../src/runtime.ts";
import { fillOrders } from "../test/support/fill-orders.ts";

/*
 * P11 (issue 15): events per second published through the relay — reading the log from
 * PostgreSQL, turning each order event into its orders.v1 message, publishing a batch, waiting for
 * the broker's acknowledgement, moving the checkpoint — against a bare producer loop that publishes
 * the very same messages, prepared in memory beforehand, in batches of the same size, with the
 * same idempotent producer, to the same broker, in the same run. Each side gets a topic of its own
 * with the same partitions. Last line: `P11 relay_vs_producer=<ratio>`; goal ≥ 0.5.
 */

const EVENTS = Number(process.env.P11_EVENTS ?? 100_000);
const PER_ORDER = 50;

const main = async () => {
  const broker = await startKafkaBroker();
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-p11-"));
  const runtime = await openRuntime({ databaseUrl: database.url, dataDir, jwtSecret: "benchmark-secret-that-is-long-enough-000", sessionTtlSeconds: 3600, intakeToken: undefined, maxUploadBytes: 1 << 20 });
  const kafka = { brokers: [broker.brokers], clientId: "p11" };
  try {
    await fillOrders(runtime.driver, EVENTS / PER_ORDER, PER_ORDER);

    // The bare side's messages: the relay's own, made from the log before the clock starts.
    const messages: OutgoingMessage[] = [];
    const rows = await runtime.deps.store.readAll({ limit: EVENTS });
    for (const recorded of rows) {
      const decoded = decodeEvent(recorded);
      if (Result.isFailure(decoded)) throw decoded.failure;
      const message = toOrdersV1(recorded, decoded.success as OrderEvent);
      if (message) messages.push(toKafkaMessage(message));
    }

    const producer = createKafkaPublisher(kafka);
    await producer.ensureTopic("p11-bare", ORDERS_V1_PARTITIONS);
    const bareStarted = performance.now();
    for (let i = 0; i < messages.length; i += RELAY_BATCH) await producer.publish("p11-bare", messages.slice(i, i + RELAY_BATCH));
    const bareSeconds = (performance.now() - bareStarted) / 1000;
    await producer.close();

    const relayStarted = performance.now();
    const relay = await runtime.startRelay(kafka);
    for (;;) {
      const lag = (await reactorLag(runtime.driver)).find((r) => r.reactor === RELAY_REACTOR);
      if (lag?.eventsBehind === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const relaySeconds = (performance.now() - relayStarted) / 1000;
    await relay.stop();

    const bareRate = messages.length / bareSeconds;
    const relayRate = EVENTS / relaySeconds;
    console.log(`events: ${EVENTS} (${EVENTS / PER_ORDER} orders), batches of ${RELAY_BATCH}, ${ORDERS_V1_PARTITIONS} partitions, Kafka on 127.0.0.1`);
    console.log(`bare producer loop: ${messages.length} messages in ${bareSeconds.toFixed(2)} s = ${Math.round(bareRate)} /s`);
    console.log(`relay (log → orders.v1 → ack → checkpoint): ${EVENTS} events in ${relaySeconds.toFixed(2)} s = ${Math.round(relayRate)} /s`);
    console.log(`P11 relay_vs_producer=${(relayRate / bareRate).toFixed(2)}`);
  } finally {
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    await broker.stop();
  }
};

await main();
