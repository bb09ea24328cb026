export type { OutgoingMessage, Publisher } from "./publisher.ts";
export { createKafkaPublisher, type KafkaSettings } from "./kafka-publisher.ts";
