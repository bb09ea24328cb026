import { postgresAvailable } from "@etd/infra/test-database";
import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allEndpoints } from "../src/app.ts";
import { isAllowed, ROLES } from "@etd/contract";
import { JWT_SECRET, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

/*
 * R6: every endpoint × every role × every kind of bad token. A bad token always gets 401; a good
 * one gets 403 exactly where the matrix says no, and otherwise reaches the endpoint (which then
 * answers the empty body with a 400, or the query). The matrix is read from the code, and the
 * expected rows below pin its decisions, so a change to either fails here.
 */

describe.skipIf(!available)("R6 permission matrix", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it("pins the matrix's decisions (000 §6 and the issue's choices)", () => {
    const who = (action: Parameters<typeof isAllowed>[1]) => ROLES.filter((role) => isAllowed(role, action));
    expect(who("password.change")).toEqual(["Admin", "Manager"]);
    expect(who("staff.manage")).toEqual(["Admin", "Manager"]);
    expect(who("gateways.manage")).toEqual(["Admin", "Manager"]);
    expect(who("orders.processed")).toEqual(["Admin"]);
    expect(who("orders.history")).toEqual(["Admin", "Manager", "Team", "Night Staff"]);
    expect(who("order.delete")).toEqual(["Admin", "Manager"]);
    expect(who("order.delete-permanently")).toEqual(["Admin"]);
    expect(who("order.assign")).toEqual(ROLES);
    expect(who("team.reset-two-factor")).toEqual(["Admin"]);
  });

  it("answers every endpoint exactly as the matrix says, for every role and every bad token", async () => {
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
      if (guard === "service" || guard === "public" || endpoint.path === signOut) continue;
      for (const role of ROLES) {
        const answer = await api.call(endpoint.method.toUpperCase(), path, body, await api.login(role));
        const label = `${endpoint.method} ${endpoint.path} as ${role}`;
        if (isAllowed(role, guard)) expect([200, 400, 404], label).toContain(answer.status);
        else expect(answer, label).toEqual({ status: 403, body: { status: 0, message: "You do not have permission to do this.", data: null } });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    // Nothing a refused or empty call did reached the log.
    expect(await api.eventCount()).toBe(before);
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
});
