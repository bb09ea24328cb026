import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import path from "node:path";

/*
 * A real Apache Kafka broker for the tests (issue 15): single node, KRaft, broker and controller
 * in one JVM, run from Maven Central's jars. The jars are fetched once with Maven into a cache
 * (KAFKA_JARS_DIR, default ~/.cache/etd-kafka/<version>) and reused by every later run; `.ci/run`
 * fetches them before the tests with `npm run kafka:fetch`. Each broker gets fresh ports and a
 * fresh log directory, listens on 127.0.0.1 only and is stopped by its pid.
 *
 * Pinned to 4.2.0: the newest release both clients are run against (ADR 0022), and the first
 * line that has dropped the protocol versions older clients used.
 */

export const KAFKA_VERSION = "4.2.0";
const LOG4J_VERSION = "2.24.3";

export const jarsDir = (): string => process.env.KAFKA_JARS_DIR || path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), ".cache"), "etd-kafka", KAFKA_VERSION);

const has = (command: string): boolean => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;

/** Why a broker cannot run here, or undefined when it can: tests skip with this notice. */
export const kafkaUnavailable = (): string | undefined => {
  if (!has("java")) return "no Java runtime on this machine (apt-get install -y default-jre-headless)";
  if (!existsSync(path.join(jarsDir(), "libs", "complete")) && !has("mvn")) return "the Kafka jars are not cached and Maven is absent to fetch them (apt-get install -y maven)";
  return undefined;
};

// slf4j 1.7 is what the broker's jars log through; log4j2 behind it prints to the console, where
// the start line is read.
const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>etd.test</groupId><artifactId>kafka-broker</artifactId><version>1</version><packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>${KAFKA_VERSION}</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>${LOG4J_VERSION}</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>${LOG4J_VERSION}</version></dependency>
  </dependencies>
</project>
`;

const LOG4J = `rootLogger.level=WARN
rootLogger.appenderRef.out.ref=out
appender.out.type=Console
appender.out.name=out
appender.out.layout.type=PatternLayout
appender.out.layout.pattern=[%d] %p %m (%c)%n
logger.raft.name=kafka.server.KafkaRaftServer
logger.raft.level=INFO
`;

/** Fetches the broker's jars into the cache unless they are there; returns the classpath folder. */
export const fetchKafkaJars = async (): Promise<string> => {
  const dir = jarsDir();
  const libs = path.join(dir, "libs");
  if (existsSync(path.join(libs, "complete"))) return libs;
  await mkdir(dir, { recursive: true });
  const work = await mkdtemp(path.join(dir, "fetch-"));
  try {
    await writeFile(path.join(work, "pom.xml"), POM);
    const fetched = spawnSync("mvn", ["-q", "-B", "dependency:copy-dependencies", "-DincludeScope=runtime", `-DoutputDirectory=${path.join(work, "libs")}`], { cwd: work, encoding: "utf8" });
    if (fetched.status !== 0) throw new Error(`Fetching the Kafka jars with Maven failed (exit ${fetched.status}):\n${fetched.stdout}${fetched.stderr}`);
    await writeFile(path.join(work, "libs", "complete"), `kafka_2.13 ${KAFKA_VERSION}\n`);
    // Renamed into place whole, so a run stopped half-way leaves no folder that looks complete.
    await rm(libs, { recursive: true, force: true });
    await rename(path.join(work, "libs"), libs);
    return libs;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });

export interface KafkaBroker {
  /** The bootstrap address, `127.0.0.1:<port>`, as KAFKA_BROKERS takes it. */
  readonly brokers: string;
  /** Stops the broker (SIGTERM, a clean shutdown) and starts it again on the same log and ports. */
  restart(): Promise<void>;
  /** Stops the broker and deletes its log. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 120_000;

export const startKafkaBroker = async (): Promise<KafkaBroker> => {
  const libs = await fetchKafkaJars();
  const dir = await mkdtemp(path.join(tmpdir(), "etd-kafka-"));
  const [port, controllerPort] = [await freePort(), await freePort()];
  const properties = path.join(dir, "server.properties");
  await writeFile(path.join(dir, "log4j2.properties"), LOG4J);
  await writeFile(
    properties,
    [
      "process.roles=broker,controller",
      "node.id=1",
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
      "controller.listener.names=CONTROLLER",
      "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
      `log.dirs=${path.join(dir, "log")}`,
      "offsets.topic.replication.factor=1",
      "offsets.topic.num.partitions=1",
      "transaction.state.log.replication.factor=1",
      "transaction.state.log.min.isr=1",
      "group.initial.rebalance.delay.ms=0",
      // The default allocates 128 MB for compaction, which no test uses.
      "log.cleaner.dedupe.buffer.size=2097152",
      "num.partitions=1",
      "auto.create.topics.enable=false",
      "",
    ].join("\n"),
  );
  const java = (main: string, args: readonly string[], heap: string) => ["-Xmx" + heap, `-Dlog4j2.configurationFile=${path.join(dir, "log4j2.properties")}`, "-cp", `${libs}/*`, main, ...args];
  // The id is joined to its option: a random id starting with "-" (one in 64) would read as an option.
  const format = spawnSync("java", java("kafka.tools.StorageTool", ["format", `--cluster-id=${randomBytes(16).toString("base64url")}`, "-c", properties], "256m"), { encoding: "utf8" });
  if (format.status !== 0) throw new Error(`Formatting the Kafka log failed:\n${format.stdout}${format.stderr}`);

  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn("java", java("kafka.Kafka", [properties], "512m"), { stdio: ["ignore", "pipe", "pipe"] });
    child = started;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Kafka did not start within ${START_TIMEOUT_MS / 1000} s:\n${output.slice(-4000)}`)), START_TIMEOUT_MS);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Kafka Server started")) {
          clearTimeout(timer);
          resolve();
        }
      };
      started.stdout.on("data", read);
      started.stderr.on("data", read);
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`Kafka exited (${code}) before it started:\n${output.slice(-4000)}`));
      });
    });
    // Keep draining the pipes so a chatty broker never blocks on a full one.
    started.stdout.removeAllListeners("data").resume();
    started.stderr.removeAllListeners("data").resume();
  };
  const halt = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGTERM");
    const timer = setTimeout(() => running.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await start();
  } catch (error) {
    await halt();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    brokers: `127.0.0.1:${port}`,
    restart: async () => {
      await halt();
      await start();
    },
    stop: async () => {
      await halt();
      await rm(dir, { recursive: true, force: true });
    },
  };
};
