import type { Reactor, RecordedEvent } from "@etd/event-store";
import { decodeEvent, parseStreamName, type OrderEvent } from "@etd/events";
import type { Publisher } from "@etd/kafka";
import * as Result from "effect/Result";
import { ORDERS_V1, toKafkaMessage, toOrdersV1 } from "./orders-v1.ts";

/*
 * The relay (DESIGN §8, issue 15): follows the log as a reactor and publishes what each order
 * event tells other systems to `orders.v1`. A batch is published whole and acknowledged by the
 * broker before the reactor moves its checkpoint, so a crash repeats at most the batch in flight
 * and loses nothing; consumers drop the repeats by the `event-id` header. Only the process holding
 * the relay's lease publishes (ADR 0023), which keeps the order of each order's messages even with
 * several relays running.
 */

export const RELAY_REACTOR = `relay:${ORDERS_V1}`;

/** Messages per publish: large enough to fill the producer's batches, small enough to repeat cheaply. */
export const RELAY_BATCH = 1_000;

/** The topic's partitions when the relay creates it; an existing topic keeps its own. */
export const ORDERS_V1_PARTITIONS = 6;

class UnreadableEvent extends Error {}

export const createRelay = (publisher: Publisher): Reactor => {
  const reactToBatch = async (batch: readonly RecordedEvent[]) => {
    const messages = [];
    for (const recorded of batch) {
      if (parseStreamName(recorded.streamId)?.category !== "order") continue;
      const decoded = decodeEvent(recorded);
      // Skipping it would lose it for good: stop here and retry, with the lag in /metrics showing
      // the wait, until a version that reads it runs (a rolling deploy) or the upcaster is fixed.
      if (Result.isFailure(decoded)) throw new UnreadableEvent(`event ${recorded.eventId} (${recorded.type} v${recorded.schemaVersion}) cannot be read: ${decoded.failure.message}`);
      const message = toOrdersV1(recorded, decoded.success as OrderEvent);
      if (message) messages.push(toKafkaMessage(message));
    }
    await publisher.publish(ORDERS_V1, messages);
  };
  return { name: RELAY_REACTOR, batchSize: RELAY_BATCH, react: (event) => reactToBatch([event]), reactToBatch };
};
