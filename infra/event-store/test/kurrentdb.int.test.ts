import { describe } from "vitest";
import { createKurrentDbEventStore } from "../src/index.ts";
import { eventStoreContract } from "./contract.ts";

/**
 * The contract suite against a real KurrentDB: the server at KURRENTDB_URL (e.g. from
 * `docker compose --profile esdb up`: kurrentdb://127.0.0.1:2113?tls=false), or else a throwaway
 * container where a container engine runs. Neither exists on the workplace machines, so there
 * (CI included) the suite skips with a notice.
 */

interface Server {
  readonly url: string;
  stop(): Promise<void>;
}

type Found = { server: Server } | { server?: undefined; reason: string };

/** Images to try, newest name first; both run insecure (no TLS, no auth) for tests. */
const IMAGES = [
  { image: "docker.kurrent.io/kurrent-latest/kurrentdb:latest", prefix: "KURRENTDB" },
  { image: "eventstore/eventstore:latest", prefix: "EVENTSTORE" },
] as const;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const findServer = async (): Promise<Found> => {
  const url = process.env.KURRENTDB_URL;
  if (url) return { server: { url, stop: async () => undefined } };

  const { GenericContainer, Wait, getContainerRuntimeClient } = await import("testcontainers");
  try {
    // Rejects within milliseconds where no engine runs.
    await getContainerRuntimeClient();
  } catch (error) {
    return { reason: `KURRENTDB_URL is not set and no container engine runs (${message(error)})` };
  }
  const failures: string[] = [];
  for (const { image, prefix } of IMAGES) {
    try {
      const container = await new GenericContainer(image)
        .withEnvironment({
          [`${prefix}_INSECURE`]: "true",
          [`${prefix}_RUN_PROJECTIONS`]: "None",
        })
        .withExposedPorts(2113)
        .withWaitStrategy(Wait.forHttp("/health/live", 2113).forStatusCodeMatching((status) => status >= 200 && status < 300))
        .withStartupTimeout(180_000)
        .start();
      return {
        server: {
          url: `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
          stop: async () => {
            await container.stop();
          },
        },
      };
    } catch (error) {
      failures.push(`${image}: ${message(error)}`);
    }
  }
  return { reason: `no KurrentDB container would start (${failures.join("; ")})` };
};

const found = await findServer();
if (!found.server) {
  console.warn(`\n  NOTICE: KurrentDB contract tests are SKIPPED: ${found.reason}.\n`);
}

describe.skipIf(!found.server)("KurrentDB adapter", () => {
  const server = found.server!;
  eventStoreContract("KurrentDB", () => ({
    // `beforeCommit` has nothing to hold open: KurrentDB has no client-side transactions.
    open: async () => createKurrentDbEventStore({ connectionString: server.url }),
    holdsTransactions: false,
    writers: 16,
    teardown: () => server.stop(),
  }));
});
