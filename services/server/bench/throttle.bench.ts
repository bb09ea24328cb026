import type { AddressInfo } from "node:net";
import { request, type Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase } from "@etd/infra/test-database";
import { createApp } from "@etd/api/internal/app.ts";
import type { AppDeps } from "@etd/api/internal/api-deps.ts";
import { createSharedThrottle } from "@etd/api/internal/auth/shared-throttle.ts";
import { createThrottle, type Throttle } from "@etd/api/internal/auth/throttle.ts";
import { addStaffAccount, isAccountChanged } from "@etd/api/internal/commands/staff-accounts.ts";
import { createRateLimiter } from "@etd/api/internal/http/rate-limit.ts";
import { openRuntime } from "../src/runtime.ts";

/*
 * Issue 28 (ADR 0040): what sharing the throttles' counts in PostgreSQL costs a request. The same
 * API in this process on a throwaway PostgreSQL database, twice: with the counts in memory (one
 * process's own) and in the shared table. Each request comes from an address of its own, so none
 * is locked out or slowed down: what is timed is the path every request takes.
 *
 * - sign_in: a right password (the attempt counted, then forgotten on success; the password hash
 *   is checked as always, and costs most of the request);
 * - track: a public order lookup with a wrong e-mail (the attempt counted, the order read);
 * - attempt: the throttle's own check and count, called directly.
 *
 * Rounds alternate between the two, THROTTLE_REQUESTS (300) requests per kind and store in all,
 * one at a time. Lines: `throttle <kind> memory p50=… p95=… shared p50=… p95=…` (milliseconds).
 */

const REQUESTS = Number(process.env.THROTTLE_REQUESTS ?? 300);
const ROUNDS = 6;
const WARMUP = 20;
const PASSWORD = "benchmark password 28";
const EMAIL = "bench.throttle@example.com";
const BENCH_KEY = Buffer.from("throttle bench subject key, 32 b");

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(Math.ceil(sorted.length * q) - 1, 0)]!;
};
const figures = (values: readonly number[]) => `p50=${quantile(values, 0.5).toFixed(2)} p95=${quantile(values, 0.95).toFixed(2)}`;

/** A fresh loopback address per call (127.2.0.1 upwards): no address or pair reaches a limit. */
let addresses = 0;
const nextAddress = () => {
  const n = ++addresses;
  return `127.${2 + (n >> 16)}.${(n >> 8) & 255}.${(n & 255) || 1}`;
};

/** POSTs JSON from a given local address; resolves with the status once the whole answer is read. */
const postFrom = (port: number, localAddress: string, apiPath: string, body: unknown) =>
  new Promise<number>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(
      { host: "127.0.0.1", port, localAddress, method: "POST", path: `/api${apiPath}`, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });

const listen = async (deps: AppDeps) => {
  const server: Server = createApp(deps).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return server;
};

const main = async () => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-throttle-bench-"));
  const runtime = await openRuntime({ databaseUrl: database.url, dataDir, jwtSecret: "a-benchmark-secret-that-is-long-enough-0123456789", sessionTtlSeconds: 3600, intakeToken: undefined, maxUploadBytes: 1 << 20 });
  try {
    const added = await addStaffAccount(runtime.deps, { user: undefined, requestId: "bench", ip: "127.0.0.1" }, { name: "Bench Throttle", email: EMAIL, role: "Team", password: PASSWORD }, "bench");
    if (!isAccountChanged(added)) throw new Error(added.body.message);
    // The order lookup reads the order_details read model.
    await (await runtime.startProjectors()).ready;
    // The public per-minute limit out of the way: it is the same in both, and would answer 429 first.
    const unlimited = createRateLimiter({ limit: 1e9, windowMs: 60_000 });
    const stores = {
      memory: { throttle: createThrottle(), trackThrottle: createThrottle({ perSubjectIp: 10, perIp: 30 }) },
      shared: { throttle: await createSharedThrottle(runtime.driver, { name: "bench-sign-in", subjectKey: BENCH_KEY }), trackThrottle: await createSharedThrottle(runtime.driver, { name: "bench-track", subjectKey: BENCH_KEY }, { perSubjectIp: 10, perIp: 30 }) },
    } satisfies Record<string, { throttle: Throttle; trackThrottle: Throttle }>;
    const servers = {
      memory: await listen({ ...runtime.deps, ...stores.memory, publicLimiter: unlimited }),
      shared: await listen({ ...runtime.deps, ...stores.shared, publicLimiter: unlimited }),
    };
    const portOf = (server: Server) => (server.address() as AddressInfo).port;

    const kinds = {
      sign_in: async (store: keyof typeof stores) => {
        const status = await postFrom(portOf(servers[store]), nextAddress(), "/admin/admin-login", { email: EMAIL, password: PASSWORD });
        if (status !== 200) throw new Error(`sign-in answered ${status}`);
      },
      track: async (store: keyof typeof stores) => {
        const status = await postFrom(portOf(servers[store]), nextAddress(), "/front/track-order", { orderId: String(100_000 + (addresses % 50_000)), email: "not.theirs@example.com" });
        if (status !== 404) throw new Error(`track-order answered ${status}`);
      },
      attempt: async (store: keyof typeof stores) => {
        const answer = await stores[store].throttle.attempt(`someone-${addresses}@example.com`, nextAddress());
        if (answer.refused) throw new Error("refused");
      },
    };
    for (const [kind, run] of Object.entries(kinds)) {
      const times: Record<keyof typeof stores, number[]> = { memory: [], shared: [] };
      for (let i = 0; i < WARMUP; i++) for (const store of ["memory", "shared"] as const) await run(store);
      for (let round = 0; round < ROUNDS; round++) {
        for (const store of round % 2 === 0 ? (["memory", "shared"] as const) : (["shared", "memory"] as const)) {
          for (let i = 0; i < REQUESTS / ROUNDS; i++) {
            const started = performance.now();
            await run(store);
            times[store].push(performance.now() - started);
          }
        }
      }
      console.log(`throttle ${kind} memory ${figures(times.memory)} shared ${figures(times.shared)} (ms, ${times.memory.length} each)`);
    }
    for (const server of Object.values(servers)) await new Promise((resolve) => server.close(resolve));
  } finally {
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

await main();
