import type { SqlDriver } from "@etd/event-store";
import { postgresAvailable } from "@etd/infra/test-database";
import { describe, expect, it } from "vitest";
import { seeded } from "../../bench/seeded.ts";
import { generateLog } from "../../bench/workload.ts";
import { ALL_PROJECTIONS } from "../../src/all-projections.ts";
import { r3Harness, SEED, sleep } from "./r3-harness.ts";
import { liveBuilds, logSize, readModelChecksums, readModelRows, rowDifferences } from "./read-model-checksums.ts";

/*
 * R3: rebuilding the read models survives crashes. The projector CLI runs as a real process and
 * is killed with SIGKILL at random points of `projections rebuild all` (seeded, so a failure can
 * be replayed with R3_SEED), restarted each time, and finally left to finish. Every read model
 * must then be row for row what an uninterrupted rebuild of the same log makes, and the registry
 * must have counted each event once per projection. The other half of R3, two `projections run`
 * processes following a growing log, is in rebuild-run-processes.int.test.ts.
 *
 * Works on whatever ALL_PROJECTIONS holds; with nothing in it there is nothing to check.
 */

const available = await postgresAvailable();
const EVENTS = Number(process.env.R3_EVENTS ?? 200_000);
const KILLS = 20;

if (ALL_PROJECTIONS.length === 0) console.warn("\n  NOTICE: ALL_PROJECTIONS is empty: the R3 rebuild crash tests have no read model to check and are SKIPPED\n");

/** Events applied so far by every build not retired: the rebuild's progress, all projections together. */
const appliedSoFar = async (driver: SqlDriver): Promise<number> =>
  Number((await driver.query("select coalesce(sum(events_applied), 0)::bigint as applied from projection_builds where status <> 'retired'"))[0]!.applied);

/**
 * A killed process keeps its leases until they expire (15 s); a real restart would wait that out.
 * Expiring them at once is the same takeover, sooner. The update waits for any batch the dead
 * process still has open on the server, so it never cuts a transaction short.
 */
const expireLeasesOf = async (driver: SqlDriver, pid: number) => {
  await driver.query("update projection_builds set lease_until = now() - interval '1 second' where lease_owner like $1", [`%:${pid}:%`]);
};

type KillPoint = { readonly kind: "start-up"; readonly afterMs: number } | { readonly kind: "progress"; readonly share: number; readonly jitterMs: number };

/** Mostly at growing shares of the work (landing inside a batch, thanks to the jitter), some during start-up. */
const killPoints = (seed: number): KillPoint[] => {
  const random = seeded(seed);
  const shares = Array.from({ length: KILLS }, () => random.next() * 0.9).sort((a, b) => a - b);
  return shares.map((share): KillPoint =>
    random.chance(0.2) ? { kind: "start-up", afterMs: random.int(50, 1500) } : { kind: "progress", share, jitterMs: random.int(0, 250) },
  );
};
describe.skipIf(!available || ALL_PROJECTIONS.length === 0)("R3 projection rebuilds under crashes and concurrency", () => {
  const { freshDatabase, projector, rebuildToTheEnd } = r3Harness();

  it(`R3 kill -9 at ${KILLS} random points of \`projections rebuild all\`, restarting each time: every read model equals an uninterrupted rebuild, no event applied twice`, async () => {
    const started = performance.now();
    const { url, driver } = await freshDatabase();
    const log = await generateLog({ connectionString: url, events: EVENTS, seed: SEED, synchronousCommit: false });
    const { events, head } = await logSize(driver.query);
    expect(events).toBe(EVENTS);
    console.log(`R3 log: ${events} events (${log.orders} orders, ${log.erasedOrders} erased) written in ${log.seconds.toFixed(1)} s, ${Math.round(log.eventsPerSecond)} events/s`);

    const total = events * ALL_PROJECTIONS.length;
    const kills: string[] = [];
    const crashPhase = performance.now();
    for (const [i, point] of killPoints(SEED).entries()) {
      const run = projector(url, "rebuild", "all");
      let where: string;
      if (point.kind === "start-up") {
        await Promise.race([sleep(point.afterMs), run.exited]);
        where = `${point.afterMs} ms after start`;
      } else {
        const target = Math.floor(point.share * total);
        const deadline = Date.now() + 180_000;
        while ((await appliedSoFar(driver)) < target) {
          const ended = await Promise.race([sleep(20), run.exited.then(() => true)]);
          if (ended === true) break;
          if (Date.now() > deadline) throw new Error(`the rebuild made no progress to ${target} events applied:\n${run.output().slice(-4000)}`);
        }
        await Promise.race([sleep(point.jitterMs), run.exited]);
        where = `${Math.round(point.share * 100)}% of the work`;
      }
      const before = await appliedSoFar(driver);
      run.kill("SIGKILL");
      const exit = await run.exited;
      // A process that finished before its kill point ended on its own: the next one rebuilds anew.
      kills.push(`#${i + 1} ${exit.signal === "SIGKILL" ? "killed" : `ended itself (code ${exit.code})`} at ${where}, ${before} of ${total} applied`);
      await expireLeasesOf(driver, run.pid);
    }
    const crashSeconds = (performance.now() - crashPhase) / 1000;
    console.log(`R3 kill points (seed ${SEED}):\n  ${kills.join("\n  ")}`);
    expect(kills.filter((k) => k.includes(" killed at "))).toHaveLength(KILLS);

    const finish = performance.now();
    await rebuildToTheEnd(url, 300_000);
    const finishSeconds = (performance.now() - finish) / 1000;
    const crashed = await liveBuilds(driver.query, ALL_PROJECTIONS);
    for (const projection of ALL_PROJECTIONS) {
      // Exactly once: one more event applied twice (or one missed) and this count is off.
      expect(crashed.get(projection.name), projection.name).toMatchObject({ eventsApplied: events, checkpoint: head });
    }
    const afterCrashes = await readModelChecksums(driver.query, ALL_PROJECTIONS);
    // Kept to name the rows that differ, if any do: the crashed build's tables go with the next rebuild.
    const crashedRows = await readModelRows(driver.query, ALL_PROJECTIONS);

    const clean = performance.now();
    await rebuildToTheEnd(url, 300_000);
    const cleanSeconds = (performance.now() - clean) / 1000;
    const uninterrupted = await liveBuilds(driver.query, ALL_PROJECTIONS);
    for (const projection of ALL_PROJECTIONS) {
      expect(uninterrupted.get(projection.name)!.build, `${projection.name} was rebuilt into a new build`).not.toBe(crashed.get(projection.name)!.build);
      expect(uninterrupted.get(projection.name), projection.name).toMatchObject({ eventsApplied: events, checkpoint: head });
    }
    const reference = await readModelChecksums(driver.query, ALL_PROJECTIONS);
    if (JSON.stringify(afterCrashes) !== JSON.stringify(reference)) {
      console.error(`R3: rows after the crashes (first) and after a clean rebuild (second):\n${rowDifferences(crashedRows, await readModelRows(driver.query, ALL_PROJECTIONS))}`);
    }
    expect(afterCrashes).toEqual(reference);

    console.log(
      `R3 crash rebuild: ${KILLS} kills in ${crashSeconds.toFixed(1)} s, then finished in ${finishSeconds.toFixed(1)} s; ` +
        `uninterrupted rebuild ${cleanSeconds.toFixed(1)} s; ${Object.keys(reference).length} tables equal ` +
        `(${Object.entries(reference)
          .map(([table, sum]) => `${table} ${sum.rows}`)
          .join(", ")}); whole test ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 1_200_000);
});
