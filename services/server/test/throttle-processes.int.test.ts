import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstAdminSettings, processSettings, startApiProcess, type ApiProcess } from "./support/api-process.ts";

/*
 * Issue 28, limits that hold across processes (ADR 0040; issue 9 items 4 and 6): two API
 * processes on one PostgreSQL, as behind the proxy. Guesses sent to both, in turn or at once,
 * are locked out after the same count as one process would allow, and both answer the lockout.
 * Requests come from several loopback addresses (127.0.x.y: the socket's own, no proxy header).
 */

const available = await postgresAvailable();
if (!available) console.warn("SKIPPED: the two-process throttle test needs PostgreSQL (TEST_DATABASE_URL)");

const ADMIN = { email: "throttle.admin@example.com", password: "throttle-test-password" };
const JWT_SECRET = "a-throttle-test-secret-that-is-long-enough-0123";
const LOCKED = { status: 0, message: "Too many failed sign-in attempts. Please try again in 15 minutes.", data: null };
const INVALID = { status: 0, message: "Invalid email or password.", data: null };

/** POSTs JSON to a process from a given local address (any of 127.0.0.0/8 reaches one on 127.0.0.1). */
const postFrom = (base: string, localAddress: string, apiPath: string, body: unknown) =>
  new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const url = new URL(`${base}/api${apiPath}`);
    const payload = JSON.stringify(body);
    const req = request(
      { host: url.hostname, port: url.port, localAddress, method: "POST", path: url.pathname, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });

describe.skipIf(!available)("issue 28: the throttles hold across two API processes", () => {
  let database: TestDatabase;
  const dataDirs: string[] = [];
  let a: ApiProcess;
  let b: ApiProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    const dataDir = async () => {
      const dir = await mkdtemp(path.join(tmpdir(), "etd-throttle-"));
      dataDirs.push(dir);
      return dir;
    };
    // The API role on both; A also projects, so that the order lookup finds its read model.
    a = await startApiProcess({ ...firstAdminSettings({ databaseUrl: database.url, dataDir: await dataDir(), admin: ADMIN, intakeToken: "intake-token-for-the-throttle-test-0123", jwtSecret: JWT_SECRET }), RUN: "api,projector" });
    b = await startApiProcess({ ...processSettings({ databaseUrl: database.url, dataDir: await dataDir(), jwtSecret: JWT_SECRET }), RUN: "api" });
  }, 240_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  const api = (i: number) => (i % 2 === 0 ? a : b);
  const signIn = (i: number, from: string, email: string, password: string) => postFrom(api(i).base, from, "/admin/admin-login", { email, password });

  it("item 6: wrong passwords sent to A and B in turn lock the (account, address) after 5, on both; the right one from elsewhere still signs in", async () => {
    for (let i = 0; i < 5; i++) expect(await signIn(i, "127.0.6.1", ADMIN.email, `wrong ${i}`)).toEqual({ status: 401, body: INVALID });
    expect(await signIn(0, "127.0.6.1", ADMIN.email, ADMIN.password)).toEqual({ status: 429, body: LOCKED });
    expect(await signIn(1, "127.0.6.1", ADMIN.email, ADMIN.password)).toEqual({ status: 429, body: LOCKED });
    const elsewhere = await signIn(1, "127.0.6.2", ADMIN.email, ADMIN.password);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body).toMatchObject({ status: 1, message: "Login successful." });
  });

  it("item 6: 30 failures from one address over many accounts, sent to A and B in turn, lock that address on both", async () => {
    for (let i = 0; i < 30; i++) expect((await signIn(i, "127.0.7.1", `guess-${i}@example.com`, "wrong")).status).toBe(401);
    expect(await signIn(0, "127.0.7.1", ADMIN.email, ADMIN.password)).toEqual({ status: 429, body: LOCKED });
    expect(await signIn(1, "127.0.7.1", "guess-30@example.com", "wrong")).toEqual({ status: 429, body: LOCKED });
    expect((await signIn(0, "127.0.7.2", ADMIN.email, ADMIN.password)).status).toBe(200);
  });

  it("item 6: 12 wrong passwords sent to A and B at once: 5 are checked, 7 refused", async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => signIn(i, "127.0.8.1", ADMIN.email, `wrong ${i}`)));
    expect(answers.filter((x) => x.status === 401)).toHaveLength(5);
    expect(answers.filter((x) => x.status === 429)).toHaveLength(7);
  });

  it("item 4: wrong order lookups sent to A and B in turn lock the (order, address) after 10, on both", async () => {
    const track = (i: number) => postFrom(api(i).base, "127.0.9.1", "/front/track-order", { orderId: "100234", email: "not.the.traveller@example.com" });
    for (let i = 0; i < 10; i++) expect((await track(i)).status).toBe(404);
    const locked = { status: 429, body: { status: 0, message: "Too many attempts. Please try again in 15 minutes.", data: null } };
    expect(await track(0)).toEqual(locked);
    expect(await track(1)).toEqual(locked);
  });
});
