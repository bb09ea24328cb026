import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type express from "express";
import { createTestDatabase } from "@etd/infra/test-database";
import type { Role } from "@etd/events";
import { createApp } from "@etd/api/internal/app.ts";
import { addStaffAccount } from "@etd/api/internal/commands/staff-accounts.ts";
import { openRuntime, type Runtime, type RuntimeOptions } from "../src/runtime.ts";

/*
 * What the API benchmarks share: the real runtime on a throwaway PostgreSQL database and data
 * directory, its staff, its read models built, the app listening on a free loopback port, and
 * everything removed afterwards, whatever the benchmark did.
 */

export const BENCH_PASSWORD = "benchmark password";
export const BENCH_INTAKE_TOKEN = "benchmark-intake-token-0000000000";

export interface BenchApi {
  readonly runtime: Runtime;
  /** e.g. http://127.0.0.1:40123/api */
  readonly base: string;
  /** Calls the API; answers the parsed body, throwing on anything but 200. */
  readonly call: (method: string, url: string, body?: unknown, authorization?: string) => Promise<unknown>;
  /** A session token for one of the staff made at the start (password BENCH_PASSWORD). */
  readonly login: (email: string) => Promise<string>;
  /** Serves another app (a baseline handler) beside the API; closed with it. */
  readonly listen: (app: express.Express) => Promise<string>;
}

const serve = async (app: express.Express, servers: Server[]): Promise<string> => {
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** Runs `work` against the API with `staff` (e-mail, role) added and every read model live. */
export const withBenchApi = async <T>(
  name: string,
  staff: readonly (readonly [email: string, role: Role])[],
  work: (api: BenchApi) => Promise<T>,
  options: Partial<RuntimeOptions> = {},
): Promise<T> => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), `etd-${name}-`));
  const servers: Server[] = [];
  const runtime = await openRuntime({
    databaseUrl: database.url,
    dataDir,
    jwtSecret: "benchmark-secret-that-is-long-enough-000",
    sessionTtlSeconds: 3600,
    intakeToken: BENCH_INTAKE_TOKEN,
    maxUploadBytes: 1024 * 1024,
    ...options,
  });
  try {
    const setup = { user: undefined, requestId: "bench", ip: "127.0.0.1" };
    for (const [email, role] of staff) await addStaffAccount(runtime.deps, setup, { name: email, email, role, password: BENCH_PASSWORD }, "bench");
    await (await runtime.startProjectors()).ready;
    const base = `${await serve(createApp(runtime.deps), servers)}/api`;
    const call: BenchApi["call"] = async (method, url, body, authorization) => {
      const response = await fetch(`${base}${url}`, {
        method,
        headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (response.status !== 200) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    const login = async (email: string) => ((await call("POST", "/admin/admin-login", { email, password: BENCH_PASSWORD })) as { jwtToken: string }).jwtToken;
    return await work({ runtime, base, call, login, listen: (app) => serve(app, servers) });
  } finally {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    await runtime.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
};
