import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { formatPosition } from "@etd/event-store";
import { createTestDatabase, type TestDatabase } from "@etd/infra/test-database";
import type { Role } from "@etd/events";
import { generateDemoOrders } from "@etd/demo";
import { createApp } from "@etd/api/internal/app.ts";
import { openRuntime, type Runtime, type RuntimeOptions } from "../../src/runtime.ts";
import { DEMO_STAFF } from "@etd/api/internal/seed/seed.ts";
import { addStaffAccount, isAccountChanged } from "@etd/api/internal/commands/staff-accounts.ts";

/*
 * A real API on a throwaway PostgreSQL database: the tests talk to it over HTTP as the existing
 * client would. One staff member per role, all with PASSWORD.
 */

export const PASSWORD = "correct horse battery";
export const INTAKE_TOKEN = "intake-token-for-tests-0123456789";
export const JWT_SECRET = "a-test-secret-that-is-long-enough-0123456789";

export interface TestApi {
  readonly base: string;
  readonly runtime: Runtime;
  readonly database: TestDatabase;
  readonly dataDir: string;
  readonly staff: Record<Role, { id: string; name: string; email: string }>;
  login(role: Role): Promise<string>;
  /** The session `login(role)` answers from now on: the one enrolment in two-factor sign-in renewed. */
  keepSession(role: Role, token: string): void;
  call(method: string, apiPath: string, body?: unknown, token?: string): Promise<{ status: number; body: Record<string, any> }>;
  /**
   * A GET that waits until the read models hold the order's last event (X-Read-After with that
   * event's position). The server waits a bounded time; on a PostgreSQL server shared with other
   * test databases the visibility horizon can hold the projector back longer, so it asks again.
   */
  readCaughtUp(apiPath: string, token: string, orderId: string): Promise<{ status: number; body: Record<string, any> }>;
  /**
   * How many events the log holds, counted in the table: unlike the head position it is not held
   * back by transactions in other databases of the same server.
   */
  eventCount(): Promise<number>;
  /** Places demo order bodies through intake; answers their order ids. */
  placeOrders(count: number, options?: { seed?: number; firstId?: number }): Promise<string[]>;
  close(): Promise<void>;
}

export const startTestApi = async (options: { maxConnections?: number; runtime?: Partial<RuntimeOptions> } = {}): Promise<TestApi> => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-api-"));
  const runtime = await openRuntime({
    databaseUrl: database.url,
    dataDir,
    jwtSecret: JWT_SECRET,
    sessionTtlSeconds: 3600,
    intakeToken: INTAKE_TOKEN,
    maxUploadBytes: 1024 * 1024,
    ...(options.maxConnections ? { maxConnections: options.maxConnections } : {}),
    ...options.runtime,
  });
  const staff = {} as Record<Role, { id: string; name: string; email: string }>;
  for (const member of DEMO_STAFF) {
    const added = await addStaffAccount(runtime.deps, { user: undefined, requestId: "test-setup", ip: "127.0.0.1" }, { ...member, password: PASSWORD }, "test-setup");
    if (!isAccountChanged(added)) throw new Error(added.body.message);
    staff[member.role] = { id: added.staffId, name: member.name, email: member.email };
  }
  await (await runtime.startProjectors()).ready;
  await runtime.startReactors();
  const server: Server = createApp(runtime.deps).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const call: TestApi["call"] = async (method, apiPath, body, token) => {
    const response = await fetch(`${base}/api${apiPath}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: token } : {}) },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  const readCaughtUp: TestApi["readCaughtUp"] = async (apiPath, token, orderId) => {
    const last = (await runtime.deps.store.readStream(`order-${orderId}`)).at(-1);
    if (!last) throw new Error(`order ${orderId} has no events`);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const response = await fetch(`${base}/api${apiPath}`, { headers: { authorization: token, "x-read-after": formatPosition(last.position) } });
      const body = (await response.json()) as Record<string, any>;
      if (response.headers.get("x-read-after-reached") === "true") return { status: response.status, body };
      if (Date.now() > deadline) throw new Error(`${apiPath}: the read models did not reach ${formatPosition(last.position)}`);
    }
  };

  const tokens = new Map<Role, string>();
  let nextSeed = 1;
  return {
    base,
    runtime,
    database,
    dataDir,
    staff,
    call,
    readCaughtUp,
    eventCount: async () => Number((await runtime.driver.query("select count(*)::bigint as n from es_events"))[0]!.n),
    login: async (role) => {
      const cached = tokens.get(role);
      if (cached) return cached;
      const answer = await call("POST", "/admin/admin-login", { email: staff[role].email, password: PASSWORD });
      if (answer.status !== 200) throw new Error(`login as ${role} failed: ${JSON.stringify(answer.body)}`);
      tokens.set(role, answer.body.jwtToken as string);
      return answer.body.jwtToken as string;
    },
    keepSession: (role, token) => void tokens.set(role, token),
    placeOrders: async (count, { seed = nextSeed++, firstId } = {}) => {
      const bodies = generateDemoOrders({ seed, count, now: new Date() });
      const ids: string[] = [];
      for (const [i, body] of bodies.entries()) {
        // Every call site gets its own id range, so orders from several calls never collide.
        const orderId = String((firstId ?? seed * 1_000_000) + i);
        const placed = await call("POST", "/intake/orders", { ...body, order_id: orderId, processing_date: new Date().toISOString().slice(0, 10) }, `Bearer ${INTAKE_TOKEN}`);
        if (placed.status !== 200) throw new Error(`placing ${orderId} failed: ${JSON.stringify(placed.body)}`);
        ids.push(orderId);
      }
      return ids;
    },
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await runtime.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};
