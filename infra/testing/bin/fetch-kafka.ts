import { fetchKafkaJars, KAFKA_VERSION } from "../src/kafka-broker.ts";

// `npm run kafka:fetch`: the broker's jars into the cache before the tests (.ci/run).
const libs = await fetchKafkaJars();
console.log(`Kafka ${KAFKA_VERSION} jars in ${libs}`);
