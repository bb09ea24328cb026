import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase } from "@etd/infra/test-database";
import { generateDemoOrders } from "@etd/demo";
import { createApp } from "@etd/api/internal/app.ts";
import { addStaffAccount } from "@etd/api/internal/commands/staff-accounts.ts";
import { inSpan, traceInMemory } from "@etd/telemetry";
import { openRuntime } from "../src/runtime.ts";
import { openStream } from "../test/support/sse-stream.ts";

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
const PASSWORD = "benchmark password";

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * q) - 1]!;

const main = async () => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-tracing-"));
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
    const post = async (url: string, body: unknown, token?: string) => {
      const response = await fetch(`${base}${url}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: token } : {}) }, body: JSON.stringify(body) });
      if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { jwtToken: string };
    };
    const login = async (email: string) => (await post("/admin/admin-login", { email, password: PASSWORD })).jwtToken;
    const [first] = generateDemoOrders({ seed: 4, count: 1, now: new Date() });
    await post("/intake/orders", { ...first, order_id: "400001" }, "Bearer benchmark-intake-token-0000000000");
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
    await new Promise((resolve) => server.close(resolve));

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
  } finally {
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

await main();
