import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createAppDeps, type ApiOptions, type AppDeps } from "@etd/api";
import { openPgliteDriver, openPostgresDriver, openSealedSqlEventStore, startReactor, type RunningReactor, type SqlDriver } from "@etd/event-store";
import type { KafkaSettings } from "@etd/kafka";
import { createChromiumRenderer } from "@etd/pdf";
import { ALL_PROJECTIONS, operatorRequests, startProjector, type Projector } from "@etd/projections";
import { startReactors, type ReactorsOptions, type Stoppable } from "@etd/reactors";
import { startRelay } from "@etd/relay";
import { createLocalDiskStorage } from "@etd/storage";
import type { Config } from "./config.ts";

/*
 * The composition root: what one process runs, and on what. One database driver is shared by the
 * event store, the key table, the API's tables and every role's checkpoints (PGlite allows one
 * opener per data directory); the documents' storage and the PDF renderer are the process's too.
 * Each role comes from its own workspace: the API (@etd/api), the projector (@etd/projections),
 * the reactors (@etd/reactors) and the relay (@etd/relay). `main.ts` and the tests both build a
 * process through it.
 */

export interface Runtime {
  readonly deps: AppDeps;
  readonly driver: SqlDriver;
  /**
   * Runs every projection in this process (npm start, tests); production may run them apart. With
   * them, the operator's requests (rebuilds, retries: issue 28), under a lease of their own.
   */
  startProjectors(): Promise<Projector>;
  /** Runs the reactors (erasure, mail, the chain's sealer) in this process: side effects that follow the log. */
  startReactors(): Promise<readonly Stoppable[]>;
  /** Runs the Kafka relay in this process (KAFKA_BROKERS). */
  startRelay(kafka: KafkaSettings): Promise<RunningReactor>;
  close(): Promise<void>;
}

export interface RuntimeOptions extends ApiOptions, Omit<ReactorsOptions, "now"> {
  readonly databaseUrl: string | undefined;
  readonly maxConnections?: number;
  /** How long a projection lease lasts without renewal (default 15 s). */
  readonly projectionLeaseMs?: number;
  /** How long a reactor's lease lasts without renewal (default 15 s). */
  readonly reactorLeaseMs?: number;
}

export const openRuntime = async (options: RuntimeOptions): Promise<Runtime> => {
  const driver = options.databaseUrl
    ? await openPostgresDriver({ connectionString: options.databaseUrl, maxConnections: options.maxConnections ?? 20 })
    : await openEmbedded(options.dataDir);
  try {
    const store = await openSealedSqlEventStore(driver);
    const storage = await createLocalDiskStorage({ root: path.join(options.dataDir, "uploads") });
    const pdf = createChromiumRenderer();
    const deps = await createAppDeps({ driver, store, storage, pdf, eventStoreKind: options.databaseUrl ? "postgres" : "pglite" }, options);
    const host = { driver, store, ...(options.reactorLeaseMs ? { leaseMs: options.reactorLeaseMs } : {}) };
    let projector: Projector | undefined;
    let operator: RunningReactor | undefined;
    let reactors: Promise<readonly Stoppable[]> | undefined;
    let relay: Promise<RunningReactor> | undefined;
    return {
      deps,
      driver,
      startProjectors: async () => {
        projector ??= await startProjector({ driver, store, projections: ALL_PROJECTIONS, ...(options.projectionLeaseMs ? { leaseMs: options.projectionLeaseMs } : {}), onEvent: (message) => console.log(`[projections] ${message}`) });
        operator ??= await startReactor(host, operatorRequests(driver, ALL_PROJECTIONS));
        return projector;
      },
      startReactors: () => (reactors ??= startReactors(host, { storage, pdf }, { ...options, now: deps.now })),
      startRelay: (kafka) => (relay ??= startRelay(host, kafka)),
      close: async () => {
        await Promise.all((await reactors?.catch(() => []))?.map((reactor) => reactor.stop()) ?? []);
        await (await relay?.catch(() => undefined))?.stop();
        await operator?.stop();
        await projector?.stop();
        await pdf.close();
        await store.close();
        await driver.close();
      },
    };
  } catch (error) {
    await driver.close().catch(() => undefined);
    throw error;
  }
};

const openEmbedded = async (dataDir: string) => {
  const dir = path.join(dataDir, "pglite");
  await mkdir(dir, { recursive: true });
  return openPgliteDriver(dir);
};

/** JWT_SECRET, or in demo mode one generated on first start and kept beside the data. */
export const sessionSecret = async (config: Config): Promise<string> => {
  if (config.jwtSecret) return config.jwtSecret;
  const file = path.join(config.dataDir, "session-secret");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    const secret = randomBytes(48).toString("base64url");
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, secret, { mode: 0o600 });
    return secret;
  }
};
