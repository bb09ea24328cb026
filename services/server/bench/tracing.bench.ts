import { generateDemoOrders } from "@etd/demo";
import { inSpan, traceInMemory } from "@etd/telemetry";
import { openStream } from "../test/support/sse-stream.ts";
import { BENCH_INTAKE_TOKEN, withBenchApi } from "./bench-runtime.ts";

/*
 * What tracing costs a command (issue 28, ADR 0041): the HTTP round trip of a remark, with a
 * projector and a watching browser in the same process, with tracing off (no exporter: what runs
 * unless OTEL_EXPORTER_OTLP_ENDPOINT is set) and on (every span recorded, to the SDK's in-memory
 * exporter), in alternating blocks of the same run so that drift on a shared machine hits both.
 * Also the off path's own cost per call of `inSpan`. The last line is
 * `TRACING commands=<n> off_p50_ms=<ms> off_p95_ms=<ms> on_p50_ms=<ms> on_p95_ms=<ms> on_vs_off_p50=<ratio> off_span_ns=<ns>`.
 */

const COMMANDS = Number(process.env.TRACING_COMMANDS ?? 400);
const BLOCK = 50;

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * q) - 1]!;

const main = () =>
  withBenchApi("tracing", [["a@bench.local", "Team"], ["b@bench.local", "Manager"]], async ({ base, call, login }) => {
    const post = (url: string, body: unknown, token?: string) => call("POST", url, body, token);
    const [first] = generateDemoOrders({ seed: 4, count: 1, now: new Date() });
    await post("/intake/orders", { ...first, order_id: "400001" }, `Bearer ${BENCH_INTAKE_TOKEN}`);
    const stream = await openStream(`${base}/live`, () => {}, { authorization: await login("b@bench.local") });
    const team = await login("a@bench.local");

    const timed = { off: [] as number[], on: [] as number[] };
    let n = 0;
    const remark = async () => {
      const started = performance.now();
      await post("/admin/add-new-remark", { orderId: "400001", remark: `remark ${n++}` }, team);
      return performance.now() - started;
    };
    for (let i = 0; i < 20; i++) await remark();
    for (let block = 0; timed.off.length < COMMANDS || timed.on.length < COMMANDS; block++) {
      const on = block % 2 === 1;
      const tracing = on ? traceInMemory() : undefined;
      for (let i = 0; i < BLOCK; i++) timed[on ? "on" : "off"].push(await remark());
      if (tracing && tracing.spans().length === 0) throw new Error("tracing on recorded no span");
      await tracing?.stop();
    }
    stream.close();

    // The off path alone: what every request, command and batch pays when nothing is recorded.
    const CALLS = 1_000_000;
    const noop = () => Promise.resolve(0);
    const startedOff = performance.now();
    for (let i = 0; i < CALLS; i++) await inSpan("x", { correlationId: "c", attributes: { a: 1 } }, noop);
    const perSpan = ((performance.now() - startedOff) * 1e6) / CALLS;

    const fixed = (ms: number) => ms.toFixed(2);
    const [offP50, offP95, onP50, onP95] = [quantile(timed.off, 0.5), quantile(timed.off, 0.95), quantile(timed.on, 0.5), quantile(timed.on, 0.95)];
    console.log(
      `TRACING commands=${timed.off.length}+${timed.on.length} off_p50_ms=${fixed(offP50)} off_p95_ms=${fixed(offP95)} on_p50_ms=${fixed(onP50)} on_p95_ms=${fixed(onP95)} on_vs_off_p50=${(onP50 / offP50).toFixed(3)} off_span_ns=${perSpan.toFixed(0)}`,
    );
  });

await main();
