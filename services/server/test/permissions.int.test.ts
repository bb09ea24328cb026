import { randomUUID } from "node:crypto";
import { postgresAvailable } from "@etd/infra/test-database";
import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allEndpoints } from "@etd/api/internal/app.ts";
import { isAllowed, ROLES, TRACK_FIRST, type Action, type Role } from "@etd/contract";
import { GRANT_COOKIE, SESSION_COOKIE } from "@etd/api/internal/http/cookies.ts";
import { FORBIDDEN, UNAUTHORIZED, type Endpoint } from "@etd/api/internal/http/endpoint.ts";
import { DOCUMENT_REFUSED } from "@etd/api/internal/routes/document-files.ts";
import { trackOrder } from "./support/public-visitor.ts";
import { waitForQuiet } from "./support/reactors.ts";
import { JWT_SECRET, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

/*
 * R6: who may call what, checked over HTTP.
 *
 * - Reads (issue 25): every read a signed-in member can make × every role × no session. The
 *   expectation comes from the permission table (contract/src/permissions.ts) through READS below,
 *   which names, for each read, the actions it needs, from the spec and FEATURES.md, independently
 *   of the guard the endpoint declares. A test checks that READS covers exactly the registered
 *   reads, and that each declared guard is among its read's actions: a read endpoint added with no
 *   row, or with a guard the table gives to the wrong roles, fails here.
 * - Commands and every bad token: the rest of the table, as each endpoint declares its guard.
 * - Cookies: the reads a cookie signs answer it only from this site.
 */

/** The reads served beside the endpoint table (mounted on their own, because a browser fetches them without headers). */
const LIVE = "GET /api/live";
const DOCUMENT = "GET /uploads/docs/:orderId/:file";

/** One read as a member makes it, and the actions of the permission table it needs (all of them). */
interface Read {
  /** The declaration it exercises: `METHOD /api/path` as registered, or LIVE, DOCUMENT. */
  readonly endpoint: string;
  readonly needs: readonly Action[];
  /** Where the spec says so. */
  readonly why: string;
  /** The address sent, when the declaration's has parameters or the query decides the rule. */
  readonly url?: string;
  /** A POST's JSON body. */
  readonly body?: unknown;
}

/** What the reads are made about: an order with a document, a staff member. */
interface Subjects {
  readonly orderId: string;
  readonly staffId: string;
  /** The order's document link, as the order details hand it out. */
  readonly documentLink: string;
}

const ALL_TIME = "from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z";

const READS = ({ orderId, staffId, documentLink }: Subjects): readonly Read[] => [
  { endpoint: "GET /api/user_info", needs: ["session.read"], why: "AUTH: who is signed in" },
  { endpoint: "GET /api/admin/two-factor", needs: ["session.read"], why: "issue 16: one's own two-factor sign-in" },
  { endpoint: LIVE, needs: ["session.read"], why: "CARD-3: the live feed of every signed-in browser" },
  { endpoint: "GET /api/admin/get-all-folder-count", needs: ["orders.read"], why: "SHELL-1: the menu's count badges" },
  { endpoint: "GET /api/admin/get-orders-list/:orderName", url: "/api/admin/get-orders-list/newOrder", needs: ["orders.read"], why: "QUEUE-1: the folders" },
  { endpoint: "GET /api/admin/get-orders-list/:orderName", url: "/api/admin/get-orders-list/allOrder", needs: ["orders.read", "orders.history"], why: "SHELL-1: Order History is hidden from Telecaller" },
  { endpoint: "POST /api/admin/search-order", body: { folderName: "newOrder", searchVal: "a" }, needs: ["orders.read"], why: "QUEUE-5" },
  { endpoint: "POST /api/admin/search-order", body: { folderName: "allOrder", searchVal: "a" }, needs: ["orders.read", "orders.history"], why: "SHELL-1" },
  { endpoint: "POST /api/admin/select-all-orders", body: { folderName: "newOrder" }, needs: ["orders.read"], why: "issue 16: select all across pages" },
  { endpoint: "POST /api/admin/select-all-orders", body: { folderName: "allOrder" }, needs: ["orders.read", "orders.history"], why: "SHELL-1" },
  { endpoint: "GET /api/admin/get-future-months", needs: ["orders.read"], why: "QUEUE-1: Future Orders" },
  { endpoint: "GET /api/admin/get-orders-details/:orderId", url: `/api/admin/get-orders-details/${orderId}`, needs: ["orders.read"], why: "ORDER-1" },
  { endpoint: "GET /api/admin/mail-content/:mailId", url: `/api/admin/mail-content/${randomUUID()}`, needs: ["orders.read"], why: "ORDER: a mail as sent" },
  { endpoint: DOCUMENT, url: documentLink, needs: ["orders.read"], why: "ORDER-14: document links" },
  { endpoint: "POST /api/admin/defence-pack-details", body: { orderId }, needs: ["order.defence-pack"], why: "ORDER: defence pack" },
  { endpoint: "POST /api/admin/get-country-order-list", body: { fromDate: "", toDate: "" }, needs: ["reports.read"], why: "ADMIN-4: Country Order List is all roles (000 §6)" },
  { endpoint: "POST /api/admin/get-processed-by-count", body: { fromDate: "", toDate: "" }, needs: ["orders.processed"], why: "ADMIN-5 sums up ADMIN-7, Admin only (000 §6)" },
  { endpoint: "GET /api/admin/get-processed-orders", needs: ["orders.processed"], why: "ADMIN-7: Order Processed is Admin only" },
  { endpoint: "GET /api/admin/export-orders", url: "/api/admin/export-orders?folderName=newOrder", needs: ["orders.export"], why: "issue 16 D: exports are Admin and Manager" },
  { endpoint: "GET /api/admin/export-orders", url: "/api/admin/export-orders?folderName=allOrder", needs: ["orders.export", "orders.history"], why: "issue 16 D, SHELL-1" },
  { endpoint: "GET /api/admin/export-report", url: "/api/admin/export-report?report=country-orders", needs: ["orders.export", "reports.read"], why: "issue 16 D, ADMIN-4" },
  { endpoint: "GET /api/admin/export-report", url: "/api/admin/export-report?report=processed-by", needs: ["orders.export", "orders.processed"], why: "issue 16 D, ADMIN-5" },
  { endpoint: "GET /api/admin/export-report", url: "/api/admin/export-report?report=order-processed", needs: ["orders.export", "orders.processed"], why: "issue 16 D, ADMIN-7" },
  { endpoint: "GET /api/admin/get-team-member-list", needs: ["staff.manage"], why: "ADMIN-1: Manage Team is Admin and Manager" },
  { endpoint: "GET /api/admin/team-member-info/:id", url: `/api/admin/team-member-info/${staffId}`, needs: ["staff.manage"], why: "ADMIN-1" },
  { endpoint: "GET /api/admin/get-team-member-type", needs: ["staff.manage"], why: "ADMIN-1" },
  { endpoint: "GET /api/admin/payment-gateways", needs: ["gateways.manage"], why: "ADMIN-2: Gateway Setting is Admin and Manager" },
  { endpoint: "GET /api/audit/verify", needs: ["audit.read"], why: "CARD-4: the Audit area is Admin and Manager" },
  { endpoint: "GET /api/audit/orders/:orderId/history", url: `/api/audit/orders/${orderId}/history`, needs: ["audit.read"], why: "CARD-4" },
  { endpoint: "GET /api/audit/orders/:orderId/as-of", url: `/api/audit/orders/${orderId}/as-of?at=2100-01-01T00:00:00Z`, needs: ["audit.read"], why: "CARD-4" },
  { endpoint: "GET /api/audit/orders/:orderId/diff", url: `/api/audit/orders/${orderId}/diff?${ALL_TIME}`, needs: ["audit.read"], why: "CARD-4" },
  { endpoint: "GET /api/audit/orders/:orderId/export", url: `/api/audit/orders/${orderId}/export`, needs: ["audit.read"], why: "CARD-4" },
  { endpoint: "GET /api/audit/orders/:orderId/timeline", url: `/api/audit/orders/${orderId}/timeline`, needs: ["audit.read"], why: "CARD-4" },
  { endpoint: "GET /api/audit/queues/:folder", url: "/api/audit/queues/newOrder?at=2100-01-01T00:00:00Z", needs: ["audit.read"], why: "CARD-4" },
  { endpoint: "GET /api/audit/staff/:staffId/activity", url: `/api/audit/staff/${staffId}/activity?${ALL_TIME}`, needs: ["audit.read"], why: "CARD-4" },
  { endpoint: "GET /api/audit/staff/:staffId/timeline", url: `/api/audit/staff/${staffId}/timeline`, needs: ["audit.read"], why: "CARD-4" },
  { endpoint: "GET /api/audit/gateways/timeline", needs: ["audit.read"], why: "CARD-4" },
  { endpoint: "GET /api/audit/log/export", url: `/api/audit/log/export?${ALL_TIME}`, needs: ["audit.read"], why: "CARD-4" },
  { endpoint: "GET /api/admin/service-levels", needs: ["service-levels.read"], why: "issue 27: the policy is read by Admin and Manager (set by an Admin only)" },
  { endpoint: "GET /api/admin/dashboard", needs: ["orders.read"], why: "issue 27: the day at a glance; the whole team's for Admin and Manager, the member's own line for the others" },
  { endpoint: "GET /api/admin/dashboard/export-members", needs: ["orders.export"], why: "issue 27: the per-member table as CSV" },
  { endpoint: "GET /api/admin/service-clock/:orderId", url: `/api/admin/service-clock/${orderId}`, needs: ["orders.read"], why: "issue 27: the order page's service-level panel" },
  { endpoint: "GET /api/admin/operations", needs: ["operations.manage"], why: "issue 28: the operator's screen is Admin only" },
];

/** The registered endpoints that read: GETs, and POSTs declared read-only. */
const isRead = (endpoint: Endpoint) => endpoint.method === "get" || endpoint.readOnly === true;
const keyOf = (endpoint: Endpoint) => `${endpoint.method.toUpperCase()} /api${endpoint.path}`;

/** Whom the permission table admits to a read. */
const admits = (role: Role, read: Read) => read.needs.every((action) => isAllowed(role, action));

/** A read's answer: its status and, when it is JSON, its body. A stream (the live feed) is closed at once; a file is read whole. */
const fetchRead = async (base: string, read: Read, headers: Record<string, string>) => {
  const [method, declared] = read.endpoint.split(" ") as [string, string];
  const response = await fetch(`${base}${read.url ?? declared}`, {
    method,
    headers: { ...headers, ...(read.body === undefined ? {} : { "content-type": "application/json" }) },
    ...(read.body === undefined ? {} : { body: JSON.stringify(read.body) }),
  });
  const type = response.headers.get("content-type") ?? "";
  if (type.startsWith("application/json")) return { status: response.status, body: await response.json() };
  if (type.startsWith("text/event-stream")) await response.body?.cancel();
  else await response.arrayBuffer();
  return { status: response.status, body: undefined };
};

describe.skipIf(!available)("R6 permission matrix", () => {
  let api: TestApi;
  let subjects: Subjects;

  beforeAll(async () => {
    api = await startTestApi();
    const [orderId] = await api.placeOrders(1);
    const form = new FormData();
    form.append("orderId", orderId!);
    form.append("email", "traveller@example.com");
    form.append("uploadVisaDoc", new Blob([new Uint8Array(Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n"))]), "visa.pdf");
    const uploaded = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: await api.login("Team") } });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    // Stored under the order's folder by its (already safe) name: the link the order details hand out.
    const documentLink = `/uploads/docs/${orderId}/visa.pdf`;
    subjects = { orderId: orderId!, staffId: api.staff.Team.id, documentLink };
    // The upload's mail goes out meanwhile; the tests below count what reaches the log after it.
    await waitForQuiet(api.runtime.driver, api.runtime.deps.store);
  });

  afterAll(async () => {
    await api?.close();
  });

  it("pins the matrix's decisions (000 §6, SHELL-1, ADMIN-5, ADMIN-7 and the issues' choices)", () => {
    const who = (action: Action) => ROLES.filter((role) => isAllowed(role, action));
    expect(who("session.read")).toEqual(ROLES);
    expect(who("orders.read")).toEqual(ROLES);
    expect(who("reports.read")).toEqual(ROLES);
    expect(who("password.change")).toEqual(["Admin", "Manager"]);
    expect(who("staff.manage")).toEqual(["Admin", "Manager"]);
    expect(who("gateways.manage")).toEqual(["Admin", "Manager"]);
    expect(who("audit.read")).toEqual(["Admin", "Manager"]);
    expect(who("orders.export")).toEqual(["Admin", "Manager"]);
    expect(who("orders.processed")).toEqual(["Admin"]);
    expect(who("orders.history")).toEqual(["Admin", "Manager", "Team", "Night Staff"]);
    expect(who("order.delete")).toEqual(["Admin", "Manager"]);
    expect(who("order.delete-permanently")).toEqual(["Admin"]);
    expect(who("order.assign")).toEqual(ROLES);
    expect(who("team.reset-two-factor")).toEqual(["Admin"]);
    expect(who("service-levels.read")).toEqual(["Admin", "Manager"]);
    expect(who("service-levels.set")).toEqual(["Admin"]);
  });

  it("issue 25: the reads under test are exactly the registered reads, each guarded by one of the actions its read needs", () => {
    const registered = allEndpoints(api.runtime.deps).filter((endpoint) => endpoint.guard !== "public" && endpoint.guard !== "service" && isRead(endpoint));
    const reads = READS(subjects);
    const tested = new Set(reads.map((read) => read.endpoint).filter((endpoint) => endpoint !== LIVE && endpoint !== DOCUMENT));
    expect([...tested].sort()).toEqual(registered.map(keyOf).sort());
    for (const endpoint of registered) {
      for (const read of reads.filter((candidate) => candidate.endpoint === keyOf(endpoint))) {
        expect(read.needs, `${keyOf(endpoint)} is guarded by ${String(endpoint.guard)} (${read.why})`).toContain(endpoint.guard);
      }
    }
    // The public reads (track-order, the download history) have no role: public.int.test.ts walks them.
    expect(allEndpoints(api.runtime.deps).filter((endpoint) => endpoint.guard === "public" && isRead(endpoint)).map(keyOf).sort()).toEqual([
      "POST /api/front/get-download-history",
      "POST /api/front/track-order",
    ]);
  });

  it("issue 25, SHELL-1, ADMIN-5, ADMIN-7: every read × every role answers as the permission table says, and no session is 401", async () => {
    const before = await api.eventCount();
    const tokens = Object.fromEntries(await Promise.all(ROLES.map(async (role) => [role, await api.login(role)] as const))) as Record<Role, string>;
    const refused = new Map<string, Role[]>();
    let checked = 0;
    for (const read of READS(subjects)) {
      const label = `${read.endpoint} ${read.url ?? ""}${read.body === undefined ? "" : JSON.stringify(read.body)}`;
      for (const role of ROLES) {
        const answer = await fetchRead(api.base, read, { authorization: tokens[role] });
        if (admits(role, read)) {
          expect(answer.status, `${label} as ${role} (${read.why})`).not.toBe(403);
          expect(answer.status, `${label} as ${role}`).not.toBe(401);
          expect(answer.status, `${label} as ${role}`).toBeLessThan(500);
        } else {
          expect(answer, `${label} as ${role} (${read.why})`).toEqual({ status: 403, body: { status: 0, message: FORBIDDEN, data: null } });
          refused.set(read.endpoint, [...(refused.get(read.endpoint) ?? []), role]);
        }
        checked++;
      }
      const anonymous = await fetchRead(api.base, read, {});
      const signInFirst = read.endpoint === DOCUMENT ? DOCUMENT_REFUSED : UNAUTHORIZED;
      expect(anonymous, `${label} without a session`).toEqual({ status: 401, body: { status: 0, message: signInFirst, data: null } });
    }
    expect(checked).toBe(READS(subjects).length * ROLES.length);
    // ADMIN-5 and ADMIN-7: the Processed By counts and the list they sum up, to an Admin only.
    expect(refused.get("POST /api/admin/get-processed-by-count")).toEqual(["Manager", "Team", "Telecaller", "Night Staff"]);
    expect(refused.get("GET /api/admin/get-processed-orders")).toEqual(["Manager", "Team", "Telecaller", "Night Staff"]);
    // Only the admitted exports were recorded (issue 16 D); nothing refused reached the log.
    const recorded = await api.runtime.driver.query(`select type from es_events order by global_position offset $1`, [before]);
    const exportsAdmitted = READS(subjects).flatMap((read) =>
      read.endpoint.includes("/export-") ? ROLES.filter((role) => admits(role, read)).map(() => read.url!) : [],
    );
    expect(recorded.map((row) => row.type)).toEqual(exportsAdmitted.map(() => "DataExported"));
  }, 120_000);

  it("answers every endpoint with 401 for every bad token, and every command as its guard says for every role", async () => {
    // Sign-out is allowed to every role and would end the sessions this loop reuses; the bad
    // tokens are still tried on it, and live.int.test.ts signs out for real.
    const signOut = "/admin/logout";
    const endpoints = allEndpoints(api.runtime.deps).filter((e) => e.guard !== "public");
    expect(endpoints.length).toBeGreaterThanOrEqual(15);
    const admin = api.staff.Admin;
    const user = { id: admin.id, name: admin.name, type: "Admin" };
    const badTokens: Record<string, string | undefined> = {
      none: undefined,
      expired: jwt.sign({ user, gen: 1, exp: Math.floor(Date.now() / 1000) - 60 }, JWT_SECRET),
      "bad signature": jwt.sign({ user, gen: 1 }, "someone else's secret that is long enough"),
      "alg none": `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${Buffer.from(JSON.stringify({ user, gen: 1 })).toString("base64url")}.`,
    };
    const before = await api.eventCount();
    let checked = 0;
    let taken = 0;
    for (const endpoint of endpoints) {
      const path = endpoint.path.replace(/:([A-Za-z]+)/g, "100001");
      const body = endpoint.method === "get" ? undefined : {};
      for (const [kind, token] of Object.entries(badTokens)) {
        const answer = await api.call(endpoint.method.toUpperCase(), path, body, token);
        expect(answer.status, `${endpoint.method} ${endpoint.path} with ${kind} token`).toBe(401);
        expect(answer.body.status).toBe(0);
        checked++;
      }
      const guard = endpoint.guard;
      // Reads have their own matrix above, with expectations that do not come from their guard.
      if (guard === "service" || guard === "public" || endpoint.path === signOut || isRead(endpoint)) continue;
      for (const role of ROLES) {
        const answer = await api.call(endpoint.method.toUpperCase(), path, body, await api.login(role));
        const label = `${endpoint.method} ${endpoint.path} as ${role}`;
        if (isAllowed(role, guard)) {
          expect([200, 400, 404], label).toContain(answer.status);
          // Take next (issue 27) needs no input: an allowed call assigns the caller an order, one event.
          if (endpoint.path === "/admin/take-next-order" && answer.body.data?.orderId) taken++;
        } else expect(answer, label).toEqual({ status: 403, body: { status: 0, message: FORBIDDEN, data: null } });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    // Nothing a refused or empty call did reached the log, but the orders Take next gave.
    expect(await api.eventCount()).toBe(before + taken);
  });

  it("soft delete needs Admin or Manager and permanent delete needs Admin, whatever the endpoint's guard (QUEUE-8)", async () => {
    const [orderId] = await api.placeOrders(1);
    for (const role of ["Team", "Telecaller", "Night Staff"] as const) {
      const answer = await api.call("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: "Deleted", permanentDeletedFlag: false }, await api.login(role));
      expect(answer.status, role).toBe(403);
    }
    const manager = await api.call(
      "PUT",
      "/admin/change-order-status",
      { orderId: [orderId], updatingStatus: "Deleted", permanentDeletedFlag: true },
      await api.login("Manager"),
    );
    expect(manager).toMatchObject({ status: 403, body: { status: 0, message: "Only an Admin can delete an order permanently." } });
    const events = await api.runtime.deps.store.readStream(`order-${orderId}`);
    expect(events.map((e) => e.type)).toEqual(["OrderPlaced"]);
  });

  /*
   * Issue 25: SameSite=Strict keeps a cookie from other sites but not from a sibling subdomain, so
   * every read a cookie signs takes it only when the browser says the request came from this site
   * (Sec-Fetch-Site same-origin or none) or says nothing (an old client, curl), as the exports
   * always did: otherwise the request gets the answer it would get with no cookie at all.
   */
  describe("issue 25: a cookie counts only from this site", () => {
    const SITES = { "same-origin": true, none: true, absent: true, "cross-site": false, "same-site": false } as const;
    const withSite = (site: keyof typeof SITES, cookie: string): Record<string, string> => ({ cookie, ...(site === "absent" ? {} : { "sec-fetch-site": site }) });

    it("CARD-3, ORDER-14, issue 16 D: the live feed, document links and exports take the session cookie from this site only, and answer another site as they answer no cookie", async () => {
      const cookie = `${SESSION_COOKIE}=${await api.login("Admin")}`;
      const reads: Read[] = [
        { endpoint: LIVE, needs: ["session.read"], why: "CARD-3" },
        { endpoint: DOCUMENT, url: subjects.documentLink, needs: ["orders.read"], why: "ORDER-14" },
        { endpoint: "GET /api/admin/export-report", url: "/api/admin/export-report?report=country-orders", needs: ["orders.export"], why: "issue 16 D" },
      ];
      for (const read of reads) {
        const noCookie = await fetchRead(api.base, read, {});
        expect(noCookie.status, read.endpoint).toBe(401);
        for (const [site, accepted] of Object.entries(SITES) as [keyof typeof SITES, boolean][]) {
          const answer = await fetchRead(api.base, read, withSite(site, cookie));
          if (accepted) expect(answer.status, `${read.endpoint} with Sec-Fetch-Site ${site}`).toBe(200);
          else expect(answer, `${read.endpoint} with Sec-Fetch-Site ${site}`).toEqual(noCookie);
        }
      }
      // The header is no cookie: a client that sends it is not asked where it comes from.
      expect((await fetchRead(api.base, reads[0]!, { authorization: await api.login("Team"), "sec-fetch-site": "cross-site" })).status).toBe(200);
    });

    it("ORDER-14, PUBLIC-2: a traveller's grant counts from this site only, for the document and the download history", async () => {
      const grant = await trackOrder(api, subjects.orderId);
      expect(grant.startsWith(`${GRANT_COOKIE}=`)).toBe(true);
      const document: Read = { endpoint: DOCUMENT, url: subjects.documentLink, needs: [], why: "ORDER-14" };
      const history: Read = { endpoint: "POST /api/front/get-download-history", body: { orderId: subjects.orderId }, needs: [], why: "PUBLIC-2" };
      for (const [site, accepted] of Object.entries(SITES) as [keyof typeof SITES, boolean][]) {
        const file = await fetchRead(api.base, document, withSite(site, grant));
        const rows = await fetchRead(api.base, history, withSite(site, grant));
        if (accepted) {
          expect([file.status, rows.status], `Sec-Fetch-Site ${site}`).toEqual([200, 200]);
        } else {
          expect(file, `Sec-Fetch-Site ${site}`).toEqual({ status: 401, body: { status: 0, message: DOCUMENT_REFUSED, data: null } });
          expect(rows, `Sec-Fetch-Site ${site}`).toMatchObject({ status: 403, body: { status: 0, message: TRACK_FIRST } });
        }
      }
    });
  });
});
