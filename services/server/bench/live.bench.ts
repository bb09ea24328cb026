import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase } from "@etd/infra/test-database";
import { generateDemoOrders } from "@etd/demo";
import { createApp } from "@etd/api/internal/app.ts";
import { addStaffAccount } from "@etd/api/internal/commands/staff-accounts.ts";
import { openRuntime } from "../src/runtime.ts";
import { openStream } from "../test/support/sse-stream.ts";

/*
 * P4: how long after a command is accepted a second staff member's browser hears of it over SSE,
 * against the command's own HTTP round trip, in one run on the local PostgreSQL. The last line is
 * `P4 live_p95_ms=<ms> live_vs_roundtrip=<ratio>`; goals ≤ 150 ms and ≤ 5.
 */

const COMMANDS = Number(process.env.P4_COMMANDS ?? 300);
const PASSWORD = "benchmark password";

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;

const main = async () => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-p4-"));
  const runtime = await openRuntime({
    databaseUrl: database.url,
    dataDir,
    jwtSecret: "benchmark-secret-that-is-long-enough-000",
    sessionTtlSeconds: 3600,
    intakeToken: "benchmark-intake-token-0000000000",
    maxUploadBytes: 1024 * 1024,
  });
  try {
    const setup = { user: undefined, requestId: "bench", ip: "127.0.0.1" };
    for (const [email, role] of [["a@bench.local", "Team"], ["b@bench.local", "Manager"]] as const) {
      await addStaffAccount(runtime.deps, setup, { name: email, email, role, password: PASSWORD }, "bench");
    }
    await (await runtime.startProjectors()).ready;
    const server = createApp(runtime.deps).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    const post = async (method: string, url: string, body: unknown, token?: string) =>
      (await (await fetch(`${base}${url}`, { method, headers: { "content-type": "application/json", ...(token ? { authorization: token } : {}) }, body: JSON.stringify(body) })).json()) as { data: { position: string }; jwtToken: string };
    const login = async (email: string) => (await post("POST", "/admin/admin-login", { email, password: PASSWORD })).jwtToken;
    const [first] = generateDemoOrders({ seed: 4, count: 1, now: new Date() });
    await post("POST", "/intake/orders", { ...first, order_id: "400001" }, "Bearer benchmark-intake-token-0000000000");

    // The second staff member's browser: the first change event carrying each position wins.
    const heardAt = new Map<string, number>();
    const watcher = await login("b@bench.local");
    const stream = await openStream(
      `${base}/live`,
      ({ event, data }) => {
        if (event !== "change") return;
        const { position } = JSON.parse(data) as { position: string };
        if (!heardAt.has(position)) heardAt.set(position, performance.now());
      },
      { authorization: watcher },
    );

    const actor = await login("a@bench.local");
    const roundTrips: number[] = [];
    const live: number[] = [];
    for (let i = 0; i < COMMANDS; i++) {
      const sent = performance.now();
      const answer = await post("POST", "/admin/add-new-remark", { orderId: "400001", remark: `benchmark remark ${i}` }, actor);
      roundTrips.push(performance.now() - sent);
      const position = answer.data.position;
      for (let wait = 0; !heardAt.has(position) && wait < 2000; wait++) await new Promise((resolve) => setTimeout(resolve, 1));
      if (!heardAt.has(position)) throw new Error(`no live event for ${position} within 2 s`);
      live.push(heardAt.get(position)! - sent);
    }
    stream.close();
    await new Promise((resolve) => server.close(resolve));
    const liveP95 = p95(live);
    const roundTripP95 = p95(roundTrips);
    console.log(`commands: ${COMMANDS}`);
    console.log(`command round trip p95: ${roundTripP95.toFixed(1)} ms`);
    console.log(`command sent → SSE event at the second client p95: ${liveP95.toFixed(1)} ms`);
    console.log(`P4 live_p95_ms=${liveP95.toFixed(1)} live_vs_roundtrip=${(liveP95 / roundTripP95).toFixed(2)}`);
  } finally {
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

await main();
