import { openPostgresDriver, type SqlDriver } from "@etd/event-store";
import { createTestDatabase, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, expect } from "vitest";
import { migrateRegistry } from "../../src/engine/registry.ts";
import { exitWithin, startProjectorProcess, type ProjectorProcess } from "./projector-process.ts";

/*
 * What both R3 files need: fresh databases, the projector CLI as real processes, and the cleanup
 * of both after the file, whatever happened. The two R3 files run side by side when the tests
 * have two PostgreSQL servers (ADR 0029).
 */

export const SEED = Number(process.env.R3_SEED ?? 20_250_615);
const RUN_LEASE_SECONDS = 4;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Call inside a describe: it registers the cleanup with afterAll. */
export const r3Harness = () => {
  const databases: TestDatabase[] = [];
  const drivers: SqlDriver[] = [];
  const processes: ProjectorProcess[] = [];

  const freshDatabase = async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 2 });
    drivers.push(driver);
    // The test watches the registry before the first projector process has created it.
    await migrateRegistry(driver);
    return { url: database.url, driver };
  };

  const spawned = (started: ProjectorProcess) => {
    processes.push(started);
    return started;
  };
  const projector = (url: string, ...args: string[]) => spawned(startProjectorProcess(url, args));
  /**
   * `projections run` with a 4 s lease (PROJECTION_LEASE_SECONDS): a takeover after a kill waits
   * for the lease to run out for real, and 4 s proves that as well as the default 15 s would.
   */
  const follower = (url: string) => spawned(startProjectorProcess(url, ["run"], { PROJECTION_LEASE_SECONDS: String(RUN_LEASE_SECONDS) }));

  /** Runs `projections rebuild all` to the end, as an operator would after the last crash. */
  const rebuildToTheEnd = async (url: string, ms: number) => {
    const run = projector(url, "rebuild", "all");
    const exit = await exitWithin(run, ms);
    expect(exit, run.output().slice(-4000)).toEqual({ code: 0, signal: null });
    expect(run.output()).toContain("rebuild done");
  };

  afterAll(async () => {
    for (const p of processes) p.kill("SIGKILL");
    await Promise.all(processes.map((p) => p.exited));
    await Promise.allSettled(drivers.map((driver) => driver.close()));
    // Every database goes, even when one drop fails.
    const dropped = await Promise.allSettled(databases.map((database) => database.drop()));
    const failed = dropped.find((d): d is PromiseRejectedResult => d.status === "rejected");
    if (failed) throw failed.reason;
  });

  return { freshDatabase, projector, follower, rebuildToTheEnd };
};
