import { mkdir } from "node:fs/promises";
import path from "node:path";
import { createPgliteEventStore, createPostgresEventStore, type EventStore } from "@etd/event-store";
import { createApp } from "./app.ts";
import { ConfigError, readConfig } from "./config.ts";

/** `npm start`: every service in one process, on PGlite under DATA_DIR unless DATABASE_URL is set. */
const main = async () => {
  const config = readConfig(process.env);
  let eventStore: EventStore;
  let kind: "postgres" | "pglite";
  if (config.databaseUrl) {
    eventStore = await createPostgresEventStore({ connectionString: config.databaseUrl });
    kind = "postgres";
  } else {
    const dir = path.join(config.dataDir, "pglite");
    await mkdir(dir, { recursive: true });
    eventStore = await createPgliteEventStore({ database: dir });
    kind = "pglite";
  }

  const server = createApp({ eventStore, eventStoreKind: kind }).listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    console.log(`Listening on http://${config.host}:${port} (event store: ${kind}${kind === "pglite" ? ` in ${config.dataDir}` : ""})`);
  });

  const stop = async (signal: string) => {
    console.log(`${signal}: shutting down`);
    server.close();
    await eventStore.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
};

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
