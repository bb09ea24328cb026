import { mkdir } from "node:fs/promises";
import path from "node:path";
import { openPgliteDriver, openPostgresDriver, openSealedSqlEventStore, type SqlDriver } from "@etd/event-store";
import { ALL_PROJECTIONS } from "./all-projections.ts";
import { projectionLag } from "./engine/lag.ts";
import type { Projection } from "./engine/projection.ts";
import { readProjectionLease, startProjector } from "./engine/projector.ts";
import { migrateRegistry, startBuild, tableOf } from "./engine/registry.ts";

/*
 * `npm run projections -- <command>` (DESIGN §5):
 *   run [name…]        keep the named projections (default: all) current; several processes may
 *                      run at once, each build is applied by one of them at a time
 *   rebuild <name|all> build the projections again from the log beside the live ones, switch
 *                      over when caught up, then exit; run it again after a crash to resume
 *   status             each build's checkpoint and lag
 * On DATABASE_URL, or on the embedded database in DATA_DIR (default ./data) when the API is not
 * running (one process at a time may open it).
 */

const usage = "usage: projections run [name…] | rebuild <name|all> | status";

const openDriver = async (): Promise<SqlDriver> => {
  if (process.env.DATABASE_URL) return openPostgresDriver({ connectionString: process.env.DATABASE_URL, maxConnections: 4 });
  const dir = path.join(path.resolve(process.env.DATA_DIR || "./data"), "pglite");
  await mkdir(dir, { recursive: true });
  return openPgliteDriver(dir);
};

const pick = (names: readonly string[]): Projection[] => {
  if (names.length === 0 || names.includes("all")) return [...ALL_PROJECTIONS];
  return names.map((name) => {
    const projection = ALL_PROJECTIONS.find((p) => p.name === name);
    if (!projection) throw new Error(`No projection is called "${name}". Known: ${ALL_PROJECTIONS.map((p) => p.name).join(", ")}`);
    return projection;
  });
};

const main = async () => {
  const [command, ...args] = process.argv.slice(2);
  if (!command || !["run", "rebuild", "status"].includes(command)) throw new Error(usage);
  const read = readProjectionLease(process.env.PROJECTION_LEASE_SECONDS);
  if ("problem" in read) throw new Error(read.problem);
  const lease = read.ms;
  const driver = await openDriver();
  const store = await openSealedSqlEventStore(driver);
  const log = (message: string) => console.log(`[projections] ${message}`);
  try {
    if (command === "status") {
      await migrateRegistry(driver);
      console.table(await projectionLag(driver));
      return;
    }
    const projections = pick(args);
    if (command === "rebuild") {
      if (args.length === 0) throw new Error(usage);
      await migrateRegistry(driver);
      const builds = [];
      for (const projection of projections) {
        builds.push(await startBuild(driver, projection.name, projection.version, (query, build) => projection.migrate(query, (base) => tableOf(build, base))));
      }
      log(`rebuilding ${builds.map((b) => `${b.name} (build ${b.build})`).join(", ")}`);
      const projector = await startProjector({ driver, store, projections, onEvent: log, leaseMs: lease });
      try {
        // A projection that breaks stops the rebuild with its error instead of waiting for ever.
        await Promise.race([waitUntilLive(driver, builds.map((b) => ({ name: b.name, build: b.build }))), projector.failure]);
      } finally {
        await projector.stop();
      }
      log("rebuild done");
      return;
    }
    // Listen for the stop signal first: a SIGTERM while catching up must still stop cleanly.
    const stopSignal = new Promise<void>((resolve) => {
      process.once("SIGINT", resolve);
      process.once("SIGTERM", resolve);
    });
    const projector = await startProjector({ driver, store, projections, onEvent: log, leaseMs: lease });
    await Promise.race([projector.ready.then(() => log(`running ${projections.map((p) => p.name).join(", ")}`)), stopSignal]);
    await stopSignal;
    await projector.stop();
  } finally {
    await store.close();
    await driver.close();
  }
};

const waitUntilLive = async (driver: SqlDriver, builds: readonly { name: string; build: number }[]) => {
  for (;;) {
    const rows = await driver.query("select name, build from projection_builds where status = 'live'");
    if (builds.every((b) => rows.some((r) => r.name === b.name && Number(r.build) === b.build))) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
