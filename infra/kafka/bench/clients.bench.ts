/**
 * Issue 15, "The client": kafkajs 2.2.4 against @platformatic/kafka 2.12.1 on the real broker
 * (Kafka 4.2.0, single-node KRaft, `startKafkaBroker()`), both with the idempotent producer
 * (acks = all), publishing the way the relay does: a batch, wait for the acknowledgement, the
 * next batch. The figures decide ADR 0022.
 *
 *  1. Throughput: BENCH_MESSAGES (100,000) JSON values of ~300 bytes, keyed by one of 2,000 order
 *     ids, header `event-id`, to a fresh 3-partition topic in awaited batches of 500; two rounds
 *     in the order kafkajs, platformatic, platformatic, kafkajs (neither always runs first on a
 *     warmer broker), after a warm-up. Then BENCH_SINGLE_SENDS (2,000) sends of one message each.
 *  2. A broker restart mid-run: 20,000 messages, `broker.restart()` started once 5,000 are
 *     acknowledged while the sends carry on. A send that rejects (or hangs past 60 s) is sent
 *     again whole, as a relay whose checkpoint has not moved would. A kafkajs consumer then reads
 *     the topic from the beginning: read, distinct event ids, duplicates, missing, per-key order.
 *     Both clients retry without end when idempotent, so the part runs again with their retries
 *     cut to the least they accept (kafkajs 1, platformatic 2): then sends reject and the
 *     re-send is what keeps every event.
 *  3. Whether each client works with Kafka 4.2 at all (which protocol versions are gone, KIP-896).
 *
 * Each client gets a fresh topic per part, created with its own admin API. Errors and warnings
 * are collected rather than printed as they come: kafkajs's own log lines at WARN and ERROR (what
 * its default logger would print) and @platformatic/kafka's retry events (it prints nothing).
 *
 *   npm run bench:kafka-clients -w @etd/kafka     BENCH_MESSAGES (100000) BENCH_SINGLE_SENDS (2000)
 *
 * The last line is `CLIENTS kafkajs=<msgs/s> platformatic=<msgs/s> ratio=<platformatic/kafkajs>`.
 */
import { kafkaUnavailable, KAFKA_VERSION, startKafkaBroker, type KafkaBroker } from "@etd/infra/kafka-broker";
import { Admin, ProduceAcks, Producer, stringSerializers } from "@platformatic/kafka";
import { Kafka, logLevel, Partitioners, type LogEntry } from "kafkajs";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

const positive = (name: string, fallback: number): number => {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${text}"`);
  return value;
};

const settings = {
  messages: positive("BENCH_MESSAGES", 100_000),
  singles: positive("BENCH_SINGLE_SENDS", 2_000),
  batch: 500,
  orders: 2_000,
  partitions: 3,
  warmup: 5_000,
  restartMessages: 20_000,
  restartAfter: 5_000,
  valueBytes: 300,
};
// Longer than any retry schedule of either client with a broker back within seconds: a send
// still pending then is reported as hung, and its batch is sent again.
const HANG_MS = 60_000;
const RETRY_PAUSE_MS = 500;
const MAX_ATTEMPTS = 20;
const CONSUME_TIMEOUT_MS = 120_000;

type ClientName = "kafkajs" | "platformatic";
const CLIENTS: readonly ClientName[] = ["kafkajs", "platformatic"];

interface Outgoing {
  readonly key: string;
  readonly value: string;
  readonly eventId: string;
  /** Position in the run: each key's messages must be read in increasing `index`. */
  readonly index: number;
}

// The same order ids and key sequence for both clients (a fixed xorshift), so both spread the
// same way over the partitions; event ids are fresh per run.
const ORDER_IDS = Array.from({ length: settings.orders }, (_, n) => `0199a3c4-7e21-7${String(n).padStart(3, "0")}-8a5b-${(n * 7919).toString(16).padStart(12, "0")}`);
const makeMessages = (count: number): Outgoing[] => {
  let seed = 0x2545f491;
  const out: Outgoing[] = [];
  const occurred = Date.parse("2026-11-25T00:00:00Z");
  for (let index = 0; index < count; index++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const orderId = ORDER_IDS[(seed >>> 0) % ORDER_IDS.length]!;
    const eventId = randomUUID();
    const body = {
      type: "OrderStatusChanged",
      schemaVersion: 1,
      eventId,
      orderId,
      index,
      occurredAt: new Date(occurred + index).toISOString(),
      status: "in_progress",
      previousStatus: "awaiting_documents",
      total: { currency: "EUR", minor: 12_900 + (index % 1000) },
      pad: "",
    };
    const bare = JSON.stringify(body).length;
    body.pad = "x".repeat(Math.max(0, settings.valueBytes - bare));
    out.push({ key: orderId, value: JSON.stringify(body), eventId, index });
  }
  return out;
};

/** What a client printed (kafkajs) or reported through events (platformatic), counted by text. */
class Notes {
  phase = "start";
  readonly lines = new Map<string, number>();
  add(level: string, text: string): void {
    const line = `[${this.phase}] ${level} ${text.replace(/\s+/g, " ").slice(0, 220)}`;
    this.lines.set(line, (this.lines.get(line) ?? 0) + 1);
  }
  count(level: string): number {
    let n = 0;
    for (const [line, c] of this.lines) if (line.includes(`] ${level} `)) n += c;
    return n;
  }
}

interface Sender {
  send(topic: string, batch: readonly Outgoing[]): Promise<void>;
  close(): Promise<void>;
}

interface Contender {
  readonly name: ClientName;
  readonly notes: Notes;
  createTopic(topic: string): Promise<void>;
  /**
   * `fewRetries`: the client gives up on a send after the fewest retries it accepts with
   * idempotence on (kafkajs 1, @platformatic/kafka 2), so the application's re-send runs. By
   * default both retry without end (Number.MAX_SAFE_INTEGER) when idempotent.
   */
  producer(options?: { fewRetries?: boolean }): Promise<Sender>;
}

const kafkajsLogger = (notes: Notes) => () => (entry: LogEntry) => {
  if (entry.level > logLevel.WARN) return;
  // retryCount and retryTime vary line by line: left out, so repeats of one complaint count together.
  const { message, error } = entry.log as { message: string; error?: string };
  notes.add(entry.level === logLevel.ERROR ? "ERROR" : "WARN", `${entry.namespace}: ${message}${error ? ` (${error})` : ""}`);
};

const kafkajsContender = (brokers: string): Contender => {
  const notes = new Notes();
  const kafka = new Kafka({ clientId: "bench-kafkajs", brokers: [brokers], logLevel: logLevel.WARN, logCreator: kafkajsLogger(notes) });
  return {
    name: "kafkajs",
    notes,
    createTopic: async (topic) => {
      const admin = kafka.admin();
      await admin.connect();
      try {
        const created = await admin.createTopics({ topics: [{ topic, numPartitions: settings.partitions, replicationFactor: 1 }], waitForLeaders: true });
        if (!created) throw new Error(`kafkajs admin: topic ${topic} already existed`);
      } finally {
        await admin.disconnect();
      }
    },
    producer: async (options) => {
      // The docs: idempotent needs acks -1 and at most one request in flight; retries then
      // default to Number.MAX_SAFE_INTEGER. The explicit partitioner silences the v2 notice.
      const producer = kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
        ...(options?.fewRetries ? { retry: { retries: 1 } } : {}),
      });
      await producer.connect();
      return {
        send: async (topic, batch) => {
          await producer.send({ topic, acks: -1, messages: batch.map((m) => ({ key: m.key, value: m.value, headers: { "event-id": m.eventId } })) });
        },
        close: () => producer.disconnect(),
      };
    },
  };
};

const platformaticContender = (brokers: string): Contender => {
  const notes = new Notes();
  return {
    name: "platformatic",
    notes,
    createTopic: async (topic) => {
      const admin = new Admin({ clientId: "bench-platformatic-admin", bootstrapBrokers: [brokers] });
      try {
        await admin.createTopics({ topics: [topic], partitions: settings.partitions, replicas: 1 });
      } finally {
        await admin.close();
      }
    },
    producer: async (options) => {
      const producer = new Producer({
        clientId: "bench-platformatic",
        bootstrapBrokers: [brokers],
        serializers: stringSerializers,
        idempotent: true,
        acks: ProduceAcks.ALL,
        // With idempotent on, fewer than 2 is raised to Number.MAX_SAFE_INTEGER by the client.
        ...(options?.fewRetries ? { retries: 2 } : {}),
      });
      producer.on("client:performWithRetry:retry", (operation: string) => notes.add("RETRY", `${operation} (attempt n)`));
      producer.on("client:performWithRetry:failed", (operation: string, _retries: number, errors: Error[]) =>
        notes.add("ERROR", `${operation} failed: ${[...new Set(errors.map(describe))].join(" | ")}`),
      );
      producer.on("client:broker:failed", () => notes.add("WARN", "connection to the broker failed"));
      return {
        send: async (topic, batch) => {
          await producer.send({ messages: batch.map((m) => ({ topic, key: m.key, value: m.value, headers: { "event-id": m.eventId } })) });
        },
        close: () => producer.close(),
      };
    },
  };
};

const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const nested = (error as Error & { errors?: unknown[] }).errors;
  const inner = Array.isArray(nested) && nested.length > 0 ? ` [${[...new Set(nested.map(describe))].slice(0, 3).join("; ")}]` : "";
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : "";
  return `${error.name}: ${error.message}${cause}${inner}`;
};

interface PublishOutcome {
  readonly ms: number;
  readonly rejected: number;
  readonly hung: number;
  /** Hung sends that settled after their batch had been sent again. */
  readonly lateSettled: number;
  /** The longest wait for one send call, retries of the client included. */
  readonly longestSendMs: number;
  readonly errors: Map<string, number>;
}

/** Sends `messages` in awaited batches, re-sending a batch whose send rejected or hung. */
const publish = async (sender: Sender, topic: string, messages: readonly Outgoing[], batchSize: number, onAcked?: (acked: number) => void): Promise<PublishOutcome> => {
  let rejected = 0;
  let hung = 0;
  let lateSettled = 0;
  let longestSendMs = 0;
  const errors = new Map<string, number>();
  const started = performance.now();
  for (let from = 0; from < messages.length; from += batchSize) {
    const batch = messages.slice(from, from + batchSize);
    for (let attempt = 1; ; attempt++) {
      const sent = performance.now();
      const sending = sender.send(topic, batch);
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        sending.then(
          () => ({ ok: true as const }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
        new Promise<{ ok: false; hung: true }>((resolve) => {
          timer = setTimeout(() => resolve({ ok: false, hung: true }), HANG_MS);
        }),
      ]);
      clearTimeout(timer);
      longestSendMs = Math.max(longestSendMs, performance.now() - sent);
      if (outcome.ok) break;
      if ("hung" in outcome) {
        hung++;
        sending.then(
          () => lateSettled++,
          () => lateSettled++,
        );
      } else {
        rejected++;
        const text = describe(outcome.error).slice(0, 300);
        errors.set(text, (errors.get(text) ?? 0) + 1);
      }
      if (attempt >= MAX_ATTEMPTS) throw new Error(`a batch failed ${attempt} times; last: ${[...errors.keys()].at(-1) ?? "hung"}`);
      await sleep(RETRY_PAUSE_MS);
    }
    onAcked?.(from + batch.length);
  }
  return { ms: performance.now() - started, rejected, hung, lateSettled, longestSendMs, errors };
};

interface Read {
  readonly partition: number;
  readonly key: string | undefined;
  readonly eventId: string | undefined;
  readonly index: number;
}

/** What the verifying kafkajs consumer printed, kept apart from the producers' notes. */
const consumerNotes = new Notes();
consumerNotes.phase = "consumer";

const highWatermarks = async (kafka: Kafka, topic: string): Promise<Map<number, bigint>> => {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return new Map(offsets.map((o) => [o.partition, BigInt(o.high)]));
  } finally {
    await admin.disconnect();
  }
};

/** Reads the whole topic from the beginning with a kafkajs consumer (what the tests use). */
const consumeAll = async (kafka: Kafka, topic: string): Promise<Read[]> => {
  const highs = await highWatermarks(kafka, topic);
  const reached = new Map<number, bigint>();
  const atEnd = () => [...highs].every(([partition, high]) => high === 0n || (reached.get(partition) ?? -1n) >= high - 1n);
  const read: Read[] = [];
  if (atEnd()) return read;
  const consumer = kafka.consumer({ groupId: `bench-verify-${topic}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => (finish = resolve));
    await consumer.run({
      eachBatch: async ({ batch }) => {
        for (const message of batch.messages) {
          const value = JSON.parse(message.value?.toString() ?? "{}") as { index?: number };
          read.push({ partition: batch.partition, key: message.key?.toString(), eventId: message.headers?.["event-id"]?.toString(), index: value.index ?? -1 });
          reached.set(batch.partition, BigInt(message.offset));
        }
        if (atEnd()) finish();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([finished, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`the consumer read ${read.length} messages of ${topic} and stopped`)), CONSUME_TIMEOUT_MS)))]);
    clearTimeout(timer);
  } finally {
    await consumer.disconnect();
  }
  return read;
};

interface Verdict {
  readonly read: number;
  readonly distinct: number;
  readonly duplicates: number;
  readonly missing: number;
  readonly unknown: number;
  /** Per key, first occurrences in publish order (what a de-duplicating consumer sees). */
  readonly keyOrderFirst: boolean;
  /** Per key, every message read in publish order, repeats included. */
  readonly keyOrderStrict: boolean;
}

const verify = (published: readonly Outgoing[], read: readonly Read[]): Verdict => {
  const byId = new Map(published.map((m) => [m.eventId, m]));
  const seen = new Set<string>();
  let unknown = 0;
  const lastFirst = new Map<string, number>();
  const lastAny = new Map<string, number>();
  let keyOrderFirst = true;
  let keyOrderStrict = true;
  for (const r of read) {
    const sent = r.eventId === undefined ? undefined : byId.get(r.eventId);
    if (!sent || sent.key !== r.key || sent.index !== r.index) {
      unknown++;
      continue;
    }
    if ((lastAny.get(sent.key) ?? -1) >= sent.index) keyOrderStrict = false;
    lastAny.set(sent.key, sent.index);
    if (seen.has(sent.eventId)) continue;
    seen.add(sent.eventId);
    if ((lastFirst.get(sent.key) ?? -1) >= sent.index) keyOrderFirst = false;
    lastFirst.set(sent.key, sent.index);
  }
  return { read: read.length, distinct: seen.size, duplicates: read.length - unknown - seen.size, missing: published.length - seen.size, unknown, keyOrderFirst, keyOrderStrict };
};

const stored = async (kafka: Kafka, topic: string): Promise<number> => {
  let total = 0n;
  for (const high of (await highWatermarks(kafka, topic)).values()) total += high;
  return Number(total);
};

const perSecond = (count: number, ms: number): number => Math.round((count * 1000) / ms);
const run = Date.now().toString(36);
const topicName = (client: ClientName, part: string) => `bench-${run}-${client}-${part}`;

interface RestartResult {
  readonly outcome: PublishOutcome;
  readonly verdict: Verdict;
  readonly restartMs: number;
}

interface ClientResult {
  throughput: number[];
  stored: number[];
  single?: number;
  restart?: RestartResult;
  /** The same with the client's retries limited: the relay's re-send path. */
  restartFewRetries?: RestartResult;
  failure?: string;
  works: string[];
}

const main = async (): Promise<void> => {
  const unavailable = kafkaUnavailable();
  if (unavailable) {
    console.error(`bench:kafka-clients needs a Kafka broker: ${unavailable}`);
    process.exitCode = 1;
    return;
  }
  const bootStarted = performance.now();
  const broker: KafkaBroker = await startKafkaBroker();
  console.log(`Kafka ${KAFKA_VERSION} at ${broker.brokers} (started in ${((performance.now() - bootStarted) / 1000).toFixed(1)} s)`);
  const stopBroker = () => {
    void broker.stop().finally(() => process.exit(130));
  };
  process.once("SIGINT", stopBroker);
  process.once("SIGTERM", stopBroker);

  const verifier = new Kafka({ clientId: "bench-verifier", brokers: [broker.brokers], logLevel: logLevel.WARN, logCreator: kafkajsLogger(consumerNotes) });
  const contenders: Record<ClientName, Contender> = { kafkajs: kafkajsContender(broker.brokers), platformatic: platformaticContender(broker.brokers) };
  const results: Record<ClientName, ClientResult> = { kafkajs: { throughput: [], stored: [], works: [] }, platformatic: { throughput: [], stored: [], works: [] } };
  const open: Sender[] = [];
  // Node's own warnings (kafkajs 2.2.4 sets a negative timeout on Node 24: tulios/kafkajs#1751),
  // noted against the client whose step was running.
  let running: ClientName | undefined;
  process.on("warning", (warning) => (running ? contenders[running].notes : consumerNotes).add("WARN", `process warning ${warning.name}: ${warning.message}`));
  // A fresh topic's partitions can refuse produce for a moment after CreateTopics returns; both
  // clients start timing only once the same neutral check (ListOffsets on every partition
  // through a third client) has passed, so neither pays the other's wait.
  const createTopic = async (name: ClientName, topic: string) => {
    await contenders[name].createTopic(topic);
    for (const deadline = Date.now() + 30_000; ; await sleep(100)) {
      try {
        await highWatermarks(verifier, topic);
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`topic ${topic} has no ready leaders: ${describe(error)}`);
      }
    }
  };
  // One client failing (Kafka 4.2 refusing it, say) must not cost the other's figures.
  const attempt = async (name: ClientName, step: string, body: () => Promise<void>) => {
    if (results[name].failure) return;
    contenders[name].notes.phase = step;
    running = name;
    try {
      await body();
    } catch (error) {
      results[name].failure = `${step}: ${describe(error)}`;
      console.log(`${name} failed in ${step}: ${describe(error)}`);
    } finally {
      running = undefined;
    }
  };
  const close = async (sender: Sender) => {
    open.splice(open.indexOf(sender), 1);
    await sender.close();
  };

  try {
    // Part 1: throughput, one producer per client, as a relay keeps one.
    const producers = new Map<ClientName, Sender>();
    for (const name of CLIENTS) {
      await attempt(name, "warm-up", async () => {
        const topic = topicName(name, "warmup");
        await createTopic(name, topic);
        results[name].works.push("admin createTopics");
        const sender = await contenders[name].producer();
        open.push(sender);
        producers.set(name, sender);
        await publish(sender, topic, makeMessages(settings.warmup), settings.batch);
        results[name].works.push("idempotent produce");
      });
    }
    const order: ClientName[] = ["kafkajs", "platformatic", "platformatic", "kafkajs"];
    for (const [slot, name] of order.entries()) {
      const round = slot < 2 ? 1 : 2;
      await attempt(name, `throughput round ${round}`, async () => {
        const topic = topicName(name, `throughput${round}`);
        await createTopic(name, topic);
        const messages = makeMessages(settings.messages);
        const outcome = await publish(producers.get(name)!, topic, messages, settings.batch);
        const rate = perSecond(messages.length, outcome.ms);
        results[name].throughput.push(rate);
        results[name].stored.push(await stored(verifier, topic));
        console.log(`round ${round} ${name}: ${rate} msgs/s (${(outcome.ms / 1000).toFixed(1)} s, ${outcome.rejected} rejected sends)`);
      });
    }
    for (const name of CLIENTS) {
      await attempt(name, "single sends", async () => {
        const topic = topicName(name, "single");
        await createTopic(name, topic);
        const messages = makeMessages(settings.singles);
        const outcome = await publish(producers.get(name)!, topic, messages, 1);
        results[name].single = perSecond(messages.length, outcome.ms);
        const read = verify(messages, await consumeAll(verifier, topic));
        if (read.distinct !== messages.length) throw new Error(`the consumer read ${read.distinct} of ${messages.length} single sends`);
        results[name].works.push("kafkajs consumer reads it");
        console.log(`single sends ${name}: ${results[name].single} msgs/s`);
      });
      const sender = producers.get(name);
      if (sender) await close(sender);
    }

    // Part 2: a broker restart under load, a fresh producer each; then again with the client
    // giving up early, so that the relay's own re-send of a failed batch is what is measured.
    const restartRun = async (name: ClientName, fewRetries: boolean): Promise<RestartResult> => {
      const topic = topicName(name, fewRetries ? "restart-fewretries" : "restart");
      await createTopic(name, topic);
      const sender = await contenders[name].producer({ fewRetries });
      open.push(sender);
      const messages = makeMessages(settings.restartMessages);
      let restarting: Promise<number> | undefined;
      let outcome: PublishOutcome;
      try {
        outcome = await publish(sender, topic, messages, settings.batch, (acked) => {
          if (!restarting && acked >= settings.restartAfter) {
            const t0 = performance.now();
            restarting = broker.restart().then(() => performance.now() - t0);
          }
        });
      } finally {
        // Even when the sends gave up, the next part needs the broker back.
        await restarting?.catch(() => undefined);
      }
      const restartMs = await restarting!;
      await close(sender);
      const verdict = verify(messages, await consumeAll(verifier, topic));
      console.log(`restart ${name}${fewRetries ? " (few retries)" : ""}: ${JSON.stringify(verdict)}, ${outcome.rejected} rejected, ${outcome.hung} hung`);
      return { outcome, verdict, restartMs };
    };
    for (const name of CLIENTS) {
      await attempt(name, "broker restart", async () => {
        results[name].restart = await restartRun(name, false);
      });
    }
    for (const name of CLIENTS) {
      await attempt(name, "broker restart, few retries", async () => {
        results[name].restartFewRetries = await restartRun(name, true);
      });
    }
  } finally {
    for (const sender of [...open]) await sender.close().catch((error: unknown) => console.log(`closing a producer: ${describe(error)}`));
    await broker.stop();
  }

  report(results, contenders);
};

const restartRows = (label: string, of: (c: ClientName) => RestartResult | undefined): [string, ...string[]][] => {
  const row = (name: string, value: (r: RestartResult) => string | number | boolean): [string, ...string[]] => [
    `${label}: ${name}`,
    ...CLIENTS.map((c) => {
      const r = of(c);
      if (!r) return "-";
      const v = value(r);
      return typeof v === "boolean" ? (v ? "yes" : "NO") : String(v);
    }),
  ];
  return [
    row("published", () => settings.restartMessages),
    row("broker down→up, s", (r) => (r.restartMs / 1000).toFixed(1)),
    row("sends rejected / hung", (r) => `${r.outcome.rejected} / ${r.outcome.hung}`),
    row("longest send, s", (r) => (r.outcome.longestSendMs / 1000).toFixed(1)),
    row("read", (r) => r.verdict.read),
    row("distinct event ids", (r) => r.verdict.distinct),
    row("duplicates", (r) => r.verdict.duplicates),
    row("missing", (r) => r.verdict.missing),
    row("per-key order, first copies", (r) => r.verdict.keyOrderFirst),
    row("per-key order, all copies", (r) => r.verdict.keyOrderStrict),
  ];
};

const report = (results: Record<ClientName, ClientResult>, contenders: Record<ClientName, Contender>): void => {
  const mean = (xs: readonly number[]) => (xs.length === 0 ? undefined : Math.round(xs.reduce((a, b) => a + b, 0) / xs.length));
  const cell = (v: string | number | undefined) => (v === undefined ? "-" : String(v));
  const rows: [string, ...string[]][] = [
    [`batches of ${settings.batch}, msgs/s (rounds)`, ...CLIENTS.map((c) => results[c].throughput.join(" / ") || "-")],
    [`batches of ${settings.batch}, msgs/s (mean)`, ...CLIENTS.map((c) => cell(mean(results[c].throughput)))],
    ["stored per round (high watermarks)", ...CLIENTS.map((c) => results[c].stored.join(" / ") || "-")],
    [`single awaited sends (${settings.singles}), msgs/s`, ...CLIENTS.map((c) => cell(results[c].single))],
    ...restartRows("restart", (c) => results[c].restart),
    ...restartRows("restart, client retries 1 / 2", (c) => results[c].restartFewRetries),
    ["errors / warnings / retries noted", ...CLIENTS.map((c) => `${contenders[c].notes.count("ERROR")} / ${contenders[c].notes.count("WARN")} / ${contenders[c].notes.count("RETRY")}`)],
    [`works with Kafka ${KAFKA_VERSION}`, ...CLIENTS.map((c) => (results[c].failure ? "NO" : "yes"))],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  const colWidth = Math.max(16, ...rows.map((r) => r[1]?.length ?? 0));
  console.log("");
  console.log(`${"".padEnd(width)}  ${"kafkajs 2.2.4".padEnd(colWidth)}  @platformatic/kafka 2.12.1`);
  for (const [label, ...values] of rows) console.log(`${label.padEnd(width)}  ${values.map((v) => v.padEnd(colWidth)).join("  ")}`);
  for (const c of CLIENTS) {
    console.log(`\n${c} with Kafka ${KAFKA_VERSION}: ${results[c].works.join(", ") || "nothing worked"}${results[c].failure ? `; failed in ${results[c].failure}` : ""}`);
    for (const [label, r] of [["", results[c].restart], [" (client retries limited)", results[c].restartFewRetries]] as const) {
      if (r && r.outcome.errors.size > 0) {
        console.log(`\n${c}: send rejections during the restart${label}`);
        for (const [text, n] of r.outcome.errors) console.log(`  ${n}× ${text}`);
      }
    }
    if (contenders[c].notes.lines.size > 0) {
      console.log(`\n${c}: logged (kafkajs: its WARN/ERROR lines; platformatic: its retry/failure events)`);
      for (const [line, n] of [...contenders[c].notes.lines].slice(0, 25)) console.log(`  ${n}× ${line}`);
    }
  }
  if (consumerNotes.lines.size > 0) {
    console.log("\nverifying kafkajs consumer: logged");
    for (const [line, n] of [...consumerNotes.lines].slice(0, 15)) console.log(`  ${n}× ${line}`);
  }
  const kafkajs = mean(results.kafkajs.throughput);
  const platformatic = mean(results.platformatic.throughput);
  const ratio = kafkajs && platformatic ? (platformatic / kafkajs).toFixed(2) : "n/a";
  console.log("");
  console.log(`CLIENTS kafkajs=${kafkajs ?? "failed"} platformatic=${platformatic ?? "failed"} ratio=${ratio}`);
};

await main();
