import { generateDemoOrders } from "@etd/demo";
import { SERVICE_LEVELS_STREAM } from "@etd/events";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTAKE_TOKEN, startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 27, the why panel's answers: the service-level policy (read by Admin and Manager, set by
 * an Admin only, each change a version for orders paid from then on) and an order's clock, now or
 * as of any earlier moment. The API runs on a fixed clock that the test moves between steps:
 * every moment below is written out, nothing waits for time.
 */

const available = await postgresAvailable();
const PDF = Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const HOUR = 3_600_000;
const MINUTE = 60_000;
const MOMENT_MESSAGE = "Give the moment as an ISO date and time, e.g. 2025-03-14T10:04:12Z.";
const rule = (label: string) => `${label}: the time allowed is a whole number of minutes from 1 to 525600 (a year).`;

describe.skipIf(!available)("issue 27: the service-level policy and an order's clock", () => {
  let api: TestApi;
  let clockMs = Date.parse("2026-03-01T00:00:00.000Z");
  const at = (iso: string) => void (clockMs = Date.parse(iso));
  let admin: string;
  let manager: string;
  let team: string;

  beforeAll(async () => {
    // Sessions outlive the day the test walks through.
    api = await startTestApi({ runtime: { now: () => new Date(clockMs), sessionTtlSeconds: 30 * 24 * 3600 } });
    [admin, manager, team] = [await api.login("Admin"), await api.login("Manager"), await api.login("Team")];
  });

  afterAll(async () => {
    await api?.close();
  });

  const policyEvents = async () => (await api.runtime.deps.store.readStream(SERVICE_LEVELS_STREAM)).length;
  const setPolicy = (body: unknown, token = admin) => api.call("PUT", "/admin/service-levels", body, token);

  /** An order placed through intake at the clock's moment, paid that day, in one processing mode. */
  const place = async (orderId: string, mode: "standard" | "priority") => {
    const [body] = generateDemoOrders({ seed: Number(orderId.slice(-3)), count: 1, now: new Date(clockMs) });
    const day = new Date(clockMs).toISOString().slice(0, 10);
    const placed = await api.call("POST", "/intake/orders", { ...body, order_id: orderId, processing_mode: mode, processing_date: day }, `Bearer ${INTAKE_TOKEN}`);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  };

  const upload = async (orderId: string, token: string) => {
    const form = new FormData();
    form.append("orderId", orderId);
    form.append("email", "juan.traveller@example.com");
    form.append("mailServiceProvider", "AWS");
    form.append("uploadVisaDoc", new Blob([new Uint8Array(PDF)]), "etravel.pdf");
    const response = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: token } });
    expect(response.status).toBe(200);
  };

  const clock = async (orderId: string, asOf?: string, token = team): Promise<any> => {
    const answer = await api.call("GET", `/admin/service-clock/${orderId}${asOf === undefined ? "" : `?asOf=${encodeURIComponent(asOf)}`}`, undefined, token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data;
  };

  it("issue 27: only an Admin sets the policy; a Manager's attempt and values out of bounds are refused with their message and append nothing", async () => {
    const manager403 = await setPolicy({ standard: 60, priority: 30, future: 60 }, manager);
    expect(manager403.status).toBe(403);
    expect(await policyEvents()).toBe(0);

    for (const [body, message] of [
      [{ standard: 0, priority: 120, future: 600 }, rule("Standard")],
      [{ standard: 600, priority: 1.5, future: 600 }, rule("Priority")],
      [{ standard: 600, priority: 120, future: 525_601 }, rule("Future orders")],
      [{ standard: 600, priority: 120 }, rule("Future orders")],
    ] as const) {
      const refused = await setPolicy(body);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ status: 0, message });
    }
    expect(await policyEvents()).toBe(0);

    // Before any is set, version 0 is in force; Managers read it, others may not.
    const before = await api.call("GET", "/admin/service-levels", undefined, manager);
    expect(before.body.data).toEqual({
      inForce: { version: 0, allowedMinutes: { standard: 1440, priority: 240, future: 1440 }, setBy: null, setAt: null },
      versions: [{ version: 0, allowedMinutes: { standard: 1440, priority: 240, future: 1440 }, setBy: null, setAt: null }],
    });
    expect((await api.call("GET", "/admin/service-levels", undefined, team)).status).toBe(403);

    const set = await setPolicy({ standard: 600, priority: 120, future: 600 });
    expect(set.status).toBe(200);
    expect(set.body.message).toBe("The service levels have been saved. They apply to orders paid from now on.");
    expect(await policyEvents()).toBe(1);
    // The same values again: a success that changes nothing.
    expect((await setPolicy({ standard: 600, priority: 120, future: 600 })).status).toBe(200);
    expect(await policyEvents()).toBe(1);
  });

  it("issue 27 (must show, fixed clock): paid, paused 3 h in Awaiting Customer, back, document uploaded: the clock counts exactly the running time; as of an earlier moment it is the earlier clock; a policy changed in between applies to new orders only", async () => {
    at("2026-03-02T08:00:00.000Z");
    await place("270000001", "standard");
    at("2026-03-02T08:10:00.000Z");
    expect((await api.call("PUT", "/admin/assign-order-status", { orderId: ["270000001"], assignto: "x" }, manager)).status).toBe(200);
    at("2026-03-02T09:00:00.000Z");
    expect((await api.call("PUT", "/admin/change-order-status", { orderId: ["270000001"], updatingStatus: "Awaiting" }, manager)).status).toBe(200);
    // The policy changes while the order waits: it keeps version 1, in force when it was paid.
    at("2026-03-02T10:00:00.000Z");
    expect((await setPolicy({ standard: 300, priority: 60, future: 300 })).status).toBe(200);
    at("2026-03-02T12:00:00.000Z");
    expect((await api.call("PUT", "/admin/change-order-status", { orderId: ["270000001"], updatingStatus: "Pending" }, manager)).status).toBe(200);
    at("2026-03-02T12:30:00.000Z");
    await place("270000002", "standard");
    at("2026-03-02T13:30:00.000Z");
    await upload("270000001", manager);

    at("2026-03-03T09:00:00.000Z");
    const done = await clock("270000001");
    expect(done).toMatchObject({ orderId: "270000001", asOf: "2026-03-03T09:00:00.000Z" });
    expect(done.clock).toMatchObject({ state: "met", kind: "standard", policyVersion: 1, usedMs: 2.5 * HOUR, allowedMs: 600 * MINUTE, leftMs: 450 * MINUTE, dueAt: null });
    const maria = { kind: "staff", id: api.staff.Manager.id, name: api.staff.Manager.name, role: "Manager" };
    expect(done.clock.segments).toEqual([
      expect.objectContaining({ state: "running", from: "2026-03-02T08:00:00.000Z", to: "2026-03-02T09:00:00.000Z", countedMs: 1 * HOUR, eventType: "OrderPlaced" }),
      { state: "paused", from: "2026-03-02T09:00:00.000Z", to: "2026-03-02T12:00:00.000Z", countedMs: 0, eventType: "OrderStatusChanged", actor: maria, status: "Awaiting Customer" },
      { state: "running", from: "2026-03-02T12:00:00.000Z", to: "2026-03-02T13:30:00.000Z", countedMs: 1.5 * HOUR, eventType: "OrderStatusChanged", actor: maria, status: "Pending" },
      { state: "met", from: "2026-03-02T13:30:00.000Z", to: null, countedMs: 0, eventType: "DocumentUploaded", actor: maria, status: "Pending" },
    ]);
    // Exactly the running time: the segments add up to the time used.
    expect(done.clock.segments.reduce((sum: number, s: { countedMs: number }) => sum + s.countedMs, 0)).toBe(done.clock.usedMs);

    // As of 10:30 the order was waiting on the traveller: 1 h used, nothing due while paused.
    const during = await clock("270000001", "2026-03-02T10:30:00Z");
    expect(during.clock).toMatchObject({ state: "paused", policyVersion: 1, usedMs: 1 * HOUR, leftMs: 540 * MINUTE, dueAt: null });
    expect(during.clock.segments.map((s: { state: string; to: string | null }) => [s.state, s.to])).toEqual([
      ["running", "2026-03-02T09:00:00.000Z"],
      ["paused", null],
    ]);
    // As of 12:15 it ran again: due 10 h after payment plus the 3 h paused.
    const resumed = await clock("270000001", "2026-03-02T12:15:00Z");
    expect(resumed.clock).toMatchObject({ state: "running", usedMs: 75 * MINUTE, dueAt: "2026-03-02T21:00:00.000Z" });
    // Before it was paid there is no clock.
    expect((await clock("270000001", "2026-03-02T07:59:00Z")).clock).toBeNull();

    // The order paid after the change runs under version 2.
    at("2026-03-02T13:30:00.000Z");
    expect((await clock("270000002")).clock).toMatchObject({ state: "running", policyVersion: 2, allowedMs: 300 * MINUTE, usedMs: 1 * HOUR, dueAt: "2026-03-02T17:30:00.000Z" });

    const policies = await api.call("GET", "/admin/service-levels", undefined, admin);
    expect(policies.body.data.inForce).toEqual({
      version: 2,
      allowedMinutes: { standard: 300, priority: 60, future: 300 },
      setBy: { kind: "staff", id: api.staff.Admin.id, name: api.staff.Admin.name, role: "Admin" },
      setAt: "2026-03-02T10:00:00.000Z",
    });
    expect(policies.body.data.versions.map((v: { version: number }) => v.version)).toEqual([2, 1, 0]);
  });

  it("issue 27: whoever may open the order page reads its clock; an unknown order answers as the order page does; a moment is checked as the audit's", async () => {
    const telecaller = await api.login("Telecaller");
    expect((await clock("270000001", undefined, telecaller)).clock.state).toBe("met");

    const page = await api.call("GET", "/admin/get-orders-details/999999999", undefined, team);
    const unknown = await api.call("GET", "/admin/service-clock/999999999", undefined, team);
    expect([unknown.status, unknown.body.message]).toEqual([page.status, page.body.message]);
    expect(unknown.status).toBe(404);
    const badId = await api.call("GET", "/admin/service-clock/12", undefined, team);
    expect([badId.status, badId.body.message]).toEqual([400, (await api.call("GET", "/admin/get-orders-details/12", undefined, team)).body.message]);

    const badMoment = await api.call("GET", "/admin/service-clock/270000001?asOf=yesterday", undefined, team);
    expect([badMoment.status, badMoment.body.message]).toEqual([400, MOMENT_MESSAGE]);
    expect((await api.call("GET", "/admin/service-clock/270000001?at=2026-03-02T10:00:00Z", undefined, team)).status).toBe(400);
    expect((await api.call("GET", "/admin/service-clock/270000001")).status).toBe(401);
  });
});
