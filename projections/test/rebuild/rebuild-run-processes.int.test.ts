import { postgresAvailable } from "@etd/infra/test-database";
import { describe, expect, it } from "vitest";
import { generateLog } from "../../bench/workload.ts";
import { ALL_PROJECTIONS } from "../../src/all-projections.ts";
import { exitWithin } from "./projector-process.ts";
import { r3Harness, SEED, sleep } from "./r3-harness.ts";
import { liveBuilds, logSize, readModelChecksums } from "./read-model-checksums.ts";

/*
 * R3, the second half: two `projections run` processes follow the log at once while it grows, one
 * of them is killed with SIGKILL and replaced: every event is still applied once, and the read
 * models equal a clean rebuild. (The 20 kills of a rebuild are in rebuild-crash.int.test.ts.)
 */

const available = await postgresAvailable();

describe.skipIf(!available || ALL_PROJECTIONS.length === 0)("R3 projection rebuilds with two run processes", () => {
  const { freshDatabase, follower, rebuildToTheEnd } = r3Harness();

  it("R3 two `projections run` processes at once while the log grows, one of them killed and replaced: every event applied once, read models equal a clean rebuild", async () => {
    const started = performance.now();
    const { url, driver } = await freshDatabase();
    await generateLog({ connectionString: url, events: 20_000, seed: SEED + 1, synchronousCommit: false });

    const running = [follower(url), follower(url)];
    await sleep(500);
    // More orders while both start, build and then follow the log; a second log into the same
    // store takes its own order numbers and leaves the team and gateways alone.
    const appending = generateLog({ connectionString: url, events: 30_000, seed: SEED + 2, firstOrderId: 900_001, teamAndGateways: false, concurrency: 8 });
    await sleep(3000);
    // The one holding more builds dies mid-batch; the other must take its builds over once the
    // leases expire (for real this time, RUN_LEASE_SECONDS), while a replacement starts beside it.
    const held = await driver.query("select lease_owner from projection_builds where status <> 'retired' and lease_until > now()");
    const pids = held.map((row) => Number(String(row.lease_owner).split(":")[1]));
    const victim = running.reduce((a, b) => (pids.filter((pid) => pid === b.pid).length > pids.filter((pid) => pid === a.pid).length ? b : a));
    victim.kill("SIGKILL");
    const victimLeases = pids.filter((pid) => pid === victim.pid).length;
    const survivors = [running.find((p) => p !== victim)!, follower(url)];
    const more = await appending;
    const { events, head } = await logSize(driver.query);
    expect(events).toBe(50_000);

    const deadline = Date.now() + 180_000;
    for (;;) {
      const live = await liveBuilds(driver.query, ALL_PROJECTIONS);
      if (ALL_PROJECTIONS.every((p) => live.get(p.name)?.checkpoint === head)) break;
      if (Date.now() > deadline) throw new Error(`the run processes did not catch up:\n${survivors.map((p) => p.output().slice(-3000)).join("\n")}`);
      await sleep(200);
    }
    const caughtUp = (performance.now() - started) / 1000;
    const live = await liveBuilds(driver.query, ALL_PROJECTIONS);
    const owners = new Set([...live.values()].map((b) => b.leaseOwner?.split(":")[1]));
    // `run` handles SIGTERM once it has caught up and said so; before that the signal ends it hard.
    while (!survivors.every((p) => p.output().includes("[projections] running"))) {
      if (Date.now() > deadline) throw new Error(`a run process never reported running:\n${survivors.map((p) => p.output().slice(-3000)).join("\n")}`);
      await sleep(100);
    }
    for (const p of survivors) p.kill("SIGTERM");
    for (const p of survivors) expect(await exitWithin(p, 30_000), p.output().slice(-3000)).toEqual({ code: 0, signal: null });
    expect(await victim.exited).toEqual({ code: null, signal: "SIGKILL" });

    for (const projection of ALL_PROJECTIONS) {
      // Exactly once: an event applied by both processes, or by the dead one and its successor, would show here.
      expect(live.get(projection.name), projection.name).toMatchObject({ eventsApplied: events, checkpoint: head });
    }
    const followed = await readModelChecksums(driver.query, ALL_PROJECTIONS);
    await rebuildToTheEnd(url, 300_000);
    expect(followed).toEqual(await readModelChecksums(driver.query, ALL_PROJECTIONS));
    console.log(
      `R3 two run processes (pids ${running.map((p) => p.pid).join(", ")}); ${victim.pid} killed holding ${victimLeases} leases, replaced by ${survivors[1]!.pid}; ` +
        `live builds held at the end by ${[...owners].join(", ")}: ${events} events, ${more.events} appended while they ran ` +
        `(${Math.round(more.eventsPerSecond)} events/s), all applied after ${caughtUp.toFixed(1)} s; equal to a clean rebuild; ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 900_000);
});
