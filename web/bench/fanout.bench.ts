import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { APP_REFETCH_TIMING } from "../src/lib/live-refetch.ts";
import { buildWebIfStale } from "../scripts/build-if-stale.ts";
import { startE2eApp, type E2eApp, type StaffMember } from "../test/support/e2e-app.ts";

/*
 * P17 (issue 28): what one idle New Order page fetches again while the rest of the team works,
 * per command, and what 200 such pages cost the server at 10 commands a second.
 *
 * - The page: a Manager's New Order queue in Chromium (the real app, the real API on PostgreSQL),
 *   counting every API request the page makes but the live feed itself. First 60 remarks (they
 *   change nothing the page shows: `unchanged_refetch`, goal 0), then 143 commands at about 5 a
 *   second in the mix below (`refetch_per_command`, goal ≤ 0.2; before this issue: 2.15).
 * - The crowd: 200 live clients, each the New Order page's two queries (the list and the folder
 *   counts) behind the app's own refetch rule and interval (live-refetch.ts), in processes of
 *   their own (fanout-crowd.ts: in this one, their parsing delayed the commands' timing), while 10
 *   commands a second in the same mix run for FANOUT_SECONDS (default 30): the server's requests a
 *   second and its CPU (its process's user + system time over the wall time).
 *
 * The mix, one command in twenty: 14 remarks; 3 moves between Pending and Awaiting Customer (the
 * folder counts change, the New list does not); 2 assignments of a New order (the New list
 * changes); 1 new order placed (New changes). Prints `P17 refetch_per_command=<n> unchanged_refetch=<n>`
 * and then `P17 clients=200 commands_per_s=<n> requests_per_s=<n> server_cpu=<share of one core>`.
 */

const CLIENTS = Number(process.env.FANOUT_CLIENTS ?? 200);
const SECONDS = Number(process.env.FANOUT_SECONDS ?? 30);
const CROWD_PROCESSES = Number(process.env.FANOUT_PROCESSES ?? 4);
const CROWD = fileURLToPath(new URL("./fanout-crowd.ts", import.meta.url));

type Kind = "remark" | "move" | "assign" | "place";
const MIX: readonly Kind[] = [
  ...Array<Kind>(14).fill("remark"),
  ...Array<Kind>(3).fill("move"),
  ...Array<Kind>(2).fill("assign"),
  "place",
];

interface Actor {
  readonly member: StaffMember;
  readonly token: string;
  /** Orders this actor holds, with the status each is in now. */
  readonly held: Map<string, "Pending" | "Awaiting">;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The API process's CPU time in seconds (user + system), from /proc. */
const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime are fields 14 and 15 of stat; after the ") " split, the state is index 0.
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** The mix's `n`th command, by the actor whose turn it is (actor n % actors). */
const workload = (app: E2eApp, actors: readonly Actor[], waiting: string[]) => {
  return async (n: number): Promise<void> => {
    const kind = MIX[n % MIX.length]!;
    const actor = actors[n % actors.length]!;
    const ok = (answer: { body: { status: number; message: string } }, what: string) => {
      if (answer.body.status !== 1) throw new Error(`${what} failed: ${answer.body.message}`);
    };
    const [orderId, status] = [...actor.held][n % actor.held.size]!;
    switch (kind) {
      case "remark":
        ok(await app.api("POST", "/admin/add-new-remark", { orderId, remark: `Bench remark ${n}` }, actor.token), "remark");
        return;
      case "move": {
        const next = status === "Pending" ? "Awaiting" : "Pending";
        ok(await app.api("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: next }, actor.token), "move");
        actor.held.set(orderId, next);
        return;
      }
      case "assign": {
        const next = waiting.shift();
        if (next === undefined) throw new Error("no New order left to assign: place more before the run");
        ok(await app.api("PUT", "/admin/assign-order-status", { orderId: [next], assignto: actor.member.name }, actor.token), "assign");
        actor.held.set(next, "Pending");
        return;
      }
      case "place":
        waiting.push(...(await app.placeOrders(1)));
        return;
    }
  };
};

/**
 * Starts command `i` at `i * everyMs`, whether or not the ones before have answered (the team does
 * not wait for each other), each actor's commands one after another (actor i % actors), so a slow
 * answer delays only its own actor's next command.
 */
const paced = async (count: number, everyMs: number, actors: number, command: (n: number) => Promise<void>): Promise<string> => {
  const started = performance.now();
  const chains = Array.from({ length: actors }, () => Promise.resolve());
  const took: number[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + i * everyMs - performance.now();
    if (due > 0) await sleep(due);
    chains[i % actors] = chains[i % actors]!.then(async () => {
      const sent = performance.now();
      await command(i);
      took.push(performance.now() - sent);
    });
  }
  await Promise.all(chains);
  took.sort((a, b) => a - b);
  return `command round trip p50 ${took[Math.floor(took.length / 2)]!.toFixed(0)} ms, p95 ${took[Math.ceil(took.length * 0.95) - 1]!.toFixed(0)} ms`;
};

const main = async () => {
  buildWebIfStale();
  const app = await startE2eApp();
  try {
    const manager = await app.addStaff("Manager");
    const actors: Actor[] = [];
    for (let i = 0; i < 8; i++) {
      const member = await app.addStaff("Team");
      actors.push({ member, token: await app.login(member), held: new Map() });
    }
    const placed = await app.placeOrders(actors.length * 10 + 40 + Math.ceil(((SECONDS * 10 + 203) * 2) / MIX.length));
    // Each actor holds ten orders; the rest wait in New and Priority for the run's assignments.
    for (const [i, actor] of actors.entries()) {
      const mine = placed.slice(i * 10, i * 10 + 10);
      const answer = await app.api("PUT", "/admin/assign-order-status", { orderId: mine, assignto: actor.member.name }, actor.token);
      if (answer.body.status !== 1) throw new Error(`assigning failed: ${answer.body.message}`);
      for (const orderId of mine) actor.held.set(orderId, "Pending");
    }
    const waiting = placed.slice(actors.length * 10);
    const command = workload(app, actors, waiting);

    // The page: a Manager's New Order queue, idle.
    const page = await app.newPage();
    let requests = 0;
    // What was fetched, by path: said with the figures, so a request that should not be is named.
    let fetched = new Map<string, number>();
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/") && url.pathname !== "/api/live") {
        requests += 1;
        fetched.set(url.pathname, (fetched.get(url.pathname) ?? 0) + 1);
      }
    });
    const named = () => [...fetched].map(([path, n]) => `${path} ×${n}`).join(", ") || "none";
    await app.openSignedIn(page, manager, "/admin/recent-order");
    await page.waitForFunction(() => document.documentElement.dataset.live === "open" && document.querySelector("table tbody tr") !== null, { polling: 50 });
    const settle = () => page.waitForNetworkIdle({ idleTime: APP_REFETCH_TIMING.intervalMs + APP_REFETCH_TIMING.spreadMs + 500, timeout: 60_000 });
    await settle();

    requests = 0;
    fetched = new Map();
    for (let i = 0; i < 60; i++) {
      const actor = actors[i % actors.length]!;
      const [orderId] = [...actor.held.keys()];
      const answer = await app.api("POST", "/admin/add-new-remark", { orderId, remark: `Bench remark ${i}` }, actor.token);
      if (answer.body.status !== 1) throw new Error(`remark failed: ${answer.body.message}`);
    }
    await settle();
    const unchanged = requests;
    const unchangedFetched = named();

    requests = 0;
    fetched = new Map();
    const COMMANDS = 143;
    const pageRoundTrips = await paced(COMMANDS, 200, actors.length, command);
    await settle();
    const perCommand = requests / COMMANDS;
    console.log(`one idle New Order page: ${unchanged} requests over 60 remarks (${unchangedFetched}); ${requests} requests over ${COMMANDS} commands of the mix (${named()}; ${pageRoundTrips})`);
    console.log(`P17 refetch_per_command=${perCommand.toFixed(2)} unchanged_refetch=${unchanged}`);
    await app.closePages();

    // The crowd: CLIENTS New Order pages' queries behind the app's own rule and interval, in
    // CROWD_PROCESSES processes of their own, so their work is not timed as the server's.
    const tokens: string[] = [];
    for (let i = 0; i < 10; i++) tokens.push(await app.login(manager));
    const crowd = await Promise.all(
      Array.from({ length: CROWD_PROCESSES }, async (_, i) => {
        const share = Math.floor(CLIENTS / CROWD_PROCESSES) + (i < CLIENTS % CROWD_PROCESSES ? 1 : 0);
        const child = fork(CROWD, [app.base, JSON.stringify(tokens), manager.id, String(share)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
        await new Promise<void>((resolve, reject) => {
          child.once("message", () => resolve());
          child.once("exit", (code) => reject(new Error(`a crowd process ended before it was ready (exit ${code})`)));
        });
        // A send to a crowd process that has ended is reported below, not thrown at the next tick.
        child.on("error", (error) => console.error(`crowd process ${i}: ${error.message}`));
        return child;
      }),
    );
    const crowdRequests = async () => {
      const ended = crowd.filter((child) => !child.connected).length;
      if (ended > 0) throw new Error(`${ended} of ${CROWD_PROCESSES} crowd processes ended during the run: the figures would count too few clients`);
      return (
        await Promise.all(
          crowd.map(
            (child) =>
              new Promise<number>((resolve) => {
                child.once("message", (message: { requests: number }) => resolve(message.requests));
                child.send({ report: true });
              }),
          ),
        )
      ).reduce((a, b) => a + b, 0);
    };
    for (const child of crowd) child.send({ reset: true });
    const cpuBefore = cpuSeconds(app.serverPid);
    const started = performance.now();
    const crowdRoundTrips = await paced(SECONDS * 10, 100, actors.length, command);
    const wall = (performance.now() - started) / 1000;
    const cpu = (cpuSeconds(app.serverPid) - cpuBefore) / wall;
    const refetches = await crowdRequests();
    const rate = refetches / wall;
    await Promise.all(
      crowd.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || !child.connected) return resolve(undefined);
            child.once("exit", resolve);
            child.send({ stop: true });
          }),
      ),
    );
    console.log(`${CLIENTS} live clients in ${CROWD_PROCESSES} processes, ${SECONDS * 10} commands in ${wall.toFixed(1)} s (${crowdRoundTrips}): ${refetches} refetches`);
    console.log(`P17 clients=${CLIENTS} commands_per_s=${((SECONDS * 10) / wall).toFixed(1)} requests_per_s=${rate.toFixed(0)} server_cpu=${cpu.toFixed(2)}`);
  } finally {
    await app.close();
  }
};

await main();
