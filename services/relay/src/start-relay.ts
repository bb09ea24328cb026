import { startReactor, type ReactorHost, type RunningReactor } from "@etd/event-store";
import type { KafkaSettings } from "@etd/kafka";
import { ORDERS_V1 } from "./orders-v1.ts";
import { createRelay, ORDERS_V1_PARTITIONS } from "./relay.ts";

/** The relay role: makes sure the topic exists, then follows the log under the relay's lease (ADR 0022, 0023). */
export const startRelay = async (host: ReactorHost, kafka: KafkaSettings): Promise<RunningReactor> => {
  // Loaded only where the relay runs: other processes never open the Kafka client.
  const { createKafkaPublisher } = await import("@etd/kafka");
  const publisher = createKafkaPublisher(kafka);
  try {
    await publisher.ensureTopic(ORDERS_V1, ORDERS_V1_PARTITIONS);
    const running = await startReactor(host, createRelay(publisher));
    return {
      holdsLease: () => running.holdsLease(),
      stop: async () => {
        await running.stop();
        await publisher.close();
      },
    };
  } catch (error) {
    await publisher.close().catch(() => undefined);
    throw error;
  }
};
