import { generateDemoOrders } from "@etd/demo";
import { openStream } from "../test/support/sse-stream.ts";
import { BENCH_INTAKE_TOKEN, withBenchApi } from "./bench-runtime.ts";

/*
 * P4: how long after a command is accepted a second staff member's browser hears of it over SSE,
 * against the command's own HTTP round trip, in one run on the local PostgreSQL. The last line is
 * `P4 live_p95_ms=<ms> live_vs_roundtrip=<ratio>`; goals ≤ 150 ms and ≤ 5.
 */

const COMMANDS = Number(process.env.P4_COMMANDS ?? 300);

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;

const main = () =>
  withBenchApi("p4", [["a@bench.local", "Team"], ["b@bench.local", "Manager"]], async ({ base, call, login }) => {
    const [first] = generateDemoOrders({ seed: 4, count: 1, now: new Date() });
    await call("POST", "/intake/orders", { ...first, order_id: "400001" }, `Bearer ${BENCH_INTAKE_TOKEN}`);

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
      const answer = (await call("POST", "/admin/add-new-remark", { orderId: "400001", remark: `benchmark remark ${i}` }, actor)) as { data: { position: string } };
      roundTrips.push(performance.now() - sent);
      const position = answer.data.position;
      for (let wait = 0; !heardAt.has(position) && wait < 2000; wait++) await new Promise((resolve) => setTimeout(resolve, 1));
      if (!heardAt.has(position)) throw new Error(`no live event for ${position} within 2 s`);
      live.push(heardAt.get(position)! - sent);
    }
    stream.close();
    const liveP95 = p95(live);
    const roundTripP95 = p95(roundTrips);
    console.log(`commands: ${COMMANDS}`);
    console.log(`command round trip p95: ${roundTripP95.toFixed(1)} ms`);
    console.log(`command sent → SSE event at the second client p95: ${liveP95.toFixed(1)} ms`);
    console.log(`P4 live_p95_ms=${liveP95.toFixed(1)} live_vs_roundtrip=${(liveP95 / roundTripP95).toFixed(2)}`);
  });

await main();
