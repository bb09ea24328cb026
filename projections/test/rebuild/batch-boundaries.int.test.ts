import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_PROJECTIONS } from "../../src/all-projections.ts";
import { startProjector } from "../../src/engine/projector.ts";
import { migrateRegistry, startBuild, tableOf } from "../../src/engine/registry.ts";
import { openTestLog, type TestLog } from "../support/test-log.ts";
import { readModelChecksums } from "./read-model-checksums.ts";

/*
 * Where a batch begins and ends is the engine's business, never the read model's: a live
 * projector applies a handful of events at a time, a rebuild thousands, and a build that has
 * fallen behind several pages at once. The same log must leave the same rows, byte for byte,
 * whatever the batches were (R3 compares read models made with different batches).
 */

const available = await postgresAvailable();

describe.skipIf(!available)("read models do not depend on batch boundaries", () => {
  let log: TestLog;

  beforeAll(async () => {
    log = await openTestLog({ events: 4000, seed: 7 });
  }, 120_000);

  afterAll(async () => {
    await log?.close();
  });

  const buildWith = async (batchSize: number) => {
    const { driver, store } = log;
    await migrateRegistry(driver);
    for (const projection of ALL_PROJECTIONS) {
      await startBuild(driver, projection.name, projection.version, (query, build) => projection.migrate(query, (base) => tableOf(build, base)));
    }
    const projector = await startProjector({ driver, store, projections: ALL_PROJECTIONS, batchSize, scanIntervalMs: 100 });
    try {
      for (;;) {
        const building = await driver.query("select count(*)::int as n from projection_builds where status = 'building'");
        if (building[0]!.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await projector.stop();
    }
    return readModelChecksums(driver.query, ALL_PROJECTIONS);
  };

  it("every table is the same built in pages of 1000 events as in pages of 7", async () => {
    const large = await buildWith(1000);
    const small = await buildWith(7);
    expect(Object.keys(small).length).toBeGreaterThan(10);
    expect(small).toEqual(large);
  }, 120_000);
});
