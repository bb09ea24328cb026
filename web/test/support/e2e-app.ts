import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, SERVER_URL, type TestDatabase } from "@etd/infra/test-database";
import { type PlaceOrderRequestBody } from "@etd/write";
import { generateDemoOrders } from "@etd/demo";
import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { startApiServer, type ApiServer } from "./api-server.ts";
import { connectSharedBrowser, launchChromium, sharedTemplate } from "./run-shared.ts";

/*
 * The end-to-end harness: a throwaway PostgreSQL database, the real API process serving the
 * built web app on it, and a headless Chromium. Staff and orders are made through the API, as
 * the product's own users and the customer-facing site would make them; the browser signs in
 * through the UI. One per test file: `const app = await startE2eApp()` in beforeAll,
 * `await app.close()` in afterAll. Under vitest the database is a copy of the run's schema and
 * the browser is the run's Chromium, in contexts of the file's own (run-shared.ts, ADR 0046).
 */

export type Role = "Admin" | "Manager" | "Team" | "Telecaller" | "Night Staff";

export interface StaffMember {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly password: string;
  readonly role: Role;
}

export interface ApiAnswer {
  /** The HTTP status. */
  readonly status: number;
  /** The envelope `{status, message, data}` as the server sent it. */
  readonly body: { status: 0 | 1; message: string; data: any; [key: string]: unknown };
}

export interface PageOptions {
  /** Default 1200 × 900. */
  readonly width?: number;
  readonly height?: number;
}

export interface E2eApp {
  /** e.g. http://127.0.0.1:43121, serving both /api and the app. */
  readonly base: string;
  /** The first admin, created by the API at start (FIRST_ADMIN_*). */
  readonly admin: StaffMember;
  readonly browser: Browser;
  /** Calls the API: `token` is a session token (see `login`), sent with no prefix. */
  api(method: "GET" | "POST" | "PUT", path: string, body?: unknown, token?: string): Promise<ApiAnswer>;
  /** A session token for this member, signed in through the API. */
  login(member: Pick<StaffMember, "email" | "password">): Promise<string>;
  /** Adds a team member of this role (through the admin's Manage Team endpoint). */
  addStaff(role: Role, details?: Partial<Pick<StaffMember, "name" | "email" | "password">>): Promise<StaffMember>;
  /**
   * Places `count` paid orders through intake (the customer-facing site's endpoint), each due
   * today so it lands in New or Priority; `change` adjusts each body (e.g. processing_mode).
   * Answers the order ids, in order.
   */
  placeOrders(count: number, change?: (body: PlaceOrderRequestBody, index: number) => Partial<PlaceOrderRequestBody>): Promise<string[]>;
  /**
   * A page in a fresh browser context: its own local storage, so its own session. It is brought
   * to the front; call `page.bringToFront()` before working in an older one again.
   */
  newPage(options?: PageOptions): Promise<Page>;
  /** Closes every page (and context) opened so far: call it in afterEach to keep the browser light. */
  closePages(): Promise<void>;
  /** Signs in through the sign-in form and waits for /admin. */
  signIn(page: Page, member: Pick<StaffMember, "email" | "password">): Promise<void>;
  /** Stores a session the way sign-in does, without the form (fast setup), then opens `path`. */
  openSignedIn(page: Page, member: Pick<StaffMember, "email" | "password">, path?: string): Promise<void>;
  /** Everything the API process printed, for failure messages. */
  serverOutput(): string;
  /** The API process's id (benchmarks read its CPU time). */
  readonly serverPid: number;
  /** The API's database, for setup the product has no screen for (payment gateways). */
  readonly databaseUrl: string;
  close(): Promise<void>;
}

const secret = (bytes: number) => randomBytes(bytes).toString("hex");

const today = () => new Date().toISOString().slice(0, 10);

/** `settings`: more of the API's settings (e.g. a mail provider's), added to the harness's own. */
export const startE2eApp = async ({ settings = {} }: { settings?: Record<string, string> } = {}): Promise<E2eApp> => {
  const cleanups: (() => Promise<unknown>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error("e2e cleanup failed", error));
  };
  try {
    const database: TestDatabase = await createTestDatabase({ template: await sharedTemplate(SERVER_URL) });
    cleanups.push(() => database.drop());
    const dataDir = await mkdtemp(path.join(tmpdir(), "etd-web-e2e-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));

    const admin: StaffMember = { id: "", name: "Ada Admin", email: "ada.admin@example.com", password: `pw-${secret(8)}`, role: "Admin" };
    const intakeToken = secret(16);
    const server: ApiServer = await startApiServer({
      DATABASE_URL: database.url,
      DEMO: "0",
      JWT_SECRET: secret(24),
      FIRST_ADMIN_EMAIL: admin.email,
      FIRST_ADMIN_PASSWORD: admin.password,
      FIRST_ADMIN_NAME: admin.name,
      INTAKE_TOKEN: intakeToken,
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      ...settings,
    });
    // Stopped before the database is dropped: cleanups run in reverse.
    cleanups.push(() => server.stop());

    const shared = await connectSharedBrowser();
    const browser: Browser = shared ?? (await launchChromium());
    if (shared) {
      // The run's browser outlives the file: the file closes every context it opened (those the
      // tests opened themselves too), then lets go of the connection.
      const before = new Set(browser.browserContexts());
      cleanups.push(async () => {
        await Promise.all(browser.browserContexts().filter((context) => !before.has(context)).map((context) => context.close().catch(() => undefined)));
        await browser.disconnect();
      });
    } else {
      cleanups.push(() => browser.close());
    }

    const api: E2eApp["api"] = async (method, apiPath, body, token) => {
      const headers: Record<string, string> = {};
      if (token) headers.authorization = token;
      if (body !== undefined) headers["content-type"] = "application/json";
      const response = await fetch(`${server.base}/api${apiPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as ApiAnswer["body"] };
    };

    const login: E2eApp["login"] = async (member) => {
      const answer = await api("POST", "/admin/admin-login", { email: member.email, password: member.password });
      if (answer.body.status !== 1) throw new Error(`sign-in of ${member.email} failed: ${answer.body.message}`);
      return answer.body.data.accessToken as string;
    };

    const adminToken = await login(admin);
    const signedInAdmin: StaffMember = { ...admin, id: ((await api("GET", "/user_info", undefined, adminToken)).body.data.id as string) ?? "" };

    let staffNumber = 0;
    const addStaff: E2eApp["addStaff"] = async (role, details = {}) => {
      staffNumber += 1;
      const slug = role.toLowerCase().replace(/\s+/g, "-");
      const member = {
        name: details.name ?? `${role} Person ${staffNumber}`,
        email: details.email ?? `${slug}.${staffNumber}@example.com`,
        password: details.password ?? `pw-${secret(6)}`,
      };
      const answer = await api("POST", "/admin/add-team-member", { ...member, type: role }, await login(admin));
      if (answer.body.status !== 1) throw new Error(`adding a ${role} failed: ${answer.body.message}`);
      return { ...member, role, id: String(answer.body.data.id) };
    };

    let nextOrderId = 300_001;
    const placeOrders: E2eApp["placeOrders"] = async (count, change) => {
      const bodies = generateDemoOrders({ seed: nextOrderId, count, now: new Date() });
      const ids: string[] = [];
      for (const [index, generated] of bodies.entries()) {
        const orderId = String(nextOrderId++);
        const body = { ...generated, order_id: orderId, processing_date: today() };
        const answer = await api("POST", "/intake/orders", { ...body, ...change?.(body, index) }, `Bearer ${intakeToken}`);
        if (answer.body.status !== 1) throw new Error(`placing order ${orderId} failed: ${answer.body.message}`);
        ids.push(orderId);
      }
      return ids;
    };

    const contexts = new Set<BrowserContext>();
    const newPage: E2eApp["newPage"] = async ({ width = 1200, height = 900 } = {}) => {
      const context = await browser.createBrowserContext();
      contexts.add(context);
      const page = await context.newPage();
      await page.setViewport({ width, height });
      await page.bringToFront();
      page.setDefaultTimeout(10_000);
      return page;
    };
    const closePages = async () => {
      const open = [...contexts];
      contexts.clear();
      await Promise.all(open.map((context) => context.close().catch(() => undefined)));
    };

    const signIn: E2eApp["signIn"] = async (page, member) => {
      await page.goto(`${server.base}/`);
      await page.locator('input[placeholder="Your Email Address"]').fill(member.email);
      await page.locator('input[placeholder="Password"]').fill(member.password);
      await page.locator("form button[type=submit]").click();
      await page.waitForFunction(() => location.pathname === "/admin", { polling: 50 });
    };

    const openSignedIn: E2eApp["openSignedIn"] = async (page, member, target = "/admin") => {
      const token = await login(member);
      // Sign-in also sets the HttpOnly session cookie the live feed needs (issue 9 item 7, ADR 0008).
      await page.browserContext().setCookie({ name: "etd_session", value: token, domain: new URL(server.base).hostname, path: "/", httpOnly: true, sameSite: "Strict" });
      // The session goes into local storage as the target's document starts, before any of the
      // app's script runs, and only for that one load: later loads of the page see what the app
      // itself left there (a sign-out stays signed out). Before, a page of the origin that runs
      // none of the app (/api/health) was loaded first to write it: a second page load per call.
      const { identifier } = await page.evaluateOnNewDocument(
        (origin, value) => {
          if (location.origin === origin) localStorage.setItem("user", JSON.stringify({ accessToken: value }));
        },
        server.base,
        token,
      );
      try {
        await page.goto(`${server.base}${target}`);
      } finally {
        await page.removeScriptToEvaluateOnNewDocument(identifier);
      }
    };

    return {
      base: server.base,
      admin: signedInAdmin,
      browser,
      api,
      login,
      addStaff,
      placeOrders,
      newPage,
      closePages,
      signIn,
      openSignedIn,
      serverOutput: () => server.output(),
      serverPid: server.pid,
      databaseUrl: database.url,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
};
