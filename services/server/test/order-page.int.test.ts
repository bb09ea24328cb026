import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { ORDER_CHANGED_MESSAGE } from "@etd/contract";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_VIEWS_PER_STAFF } from "@etd/api/internal/routes/presence-routes.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 11, the order page's API: the version the page holds, "changed since you opened it"
 * (409 with what changed, read from the log), presence, and the audit lines' request IP.
 */

const available = await postgresAvailable();

const PDF = Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

const filesUnder = async (dir: string): Promise<string[]> => {
  try {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
};

describe.skipIf(!available)("issue 11: the order page's API", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  const read = (apiPath: string, token: string, orderId: string) => api.readCaughtUp(apiPath, token, orderId);
  const details = async (orderId: string, token: string): Promise<Record<string, any>> =>
    (await read(`/admin/get-orders-details/${orderId}`, token, orderId)).body.data as Record<string, any>;
  const streamLength = async (orderId: string) => (await api.runtime.deps.store.readStream(`order-${orderId}`)).length;

  const upload = async (fields: Record<string, string>, token: string) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append("uploadVisaDoc", new Blob([new Uint8Array(PDF)]), "visa.pdf");
    const response = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: token } });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  const remark = (orderId: string, extra: Record<string, unknown>) => ({ orderId, remark: "Called the traveller", ...extra });

  it("item 1 (ORDER-1): details carry version and assign_to_id; every order event, remarks and mails included, moves the version", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    const placed = await details(orderId!, team);
    expect(placed).toMatchObject({ version: 1, assign_to_id: null, assign_to: "" });

    await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, team);
    expect(await details(orderId!, team)).toMatchObject({ version: 2, assign_to_id: api.staff.Team.id, assign_to: api.staff.Team.name });

    // Neither a remark nor a mail request changes the document's fields, but each is an event of the stream.
    expect((await api.call("POST", "/admin/add-new-remark", remark(orderId!, {}), team)).body.status).toBe(1);
    expect((await details(orderId!, team)).version).toBe(3);
    expect((await upload({ orderId: orderId!, email: "juan@example.com", mailServiceProvider: "AWS" }, team)).body.status).toBe(1);
    expect((await details(orderId!, team)).version).toBe(4);
    const resend = await api.call("POST", "/admin/resend-mail", { orderId, email: "juan@example.com", mailServiceProvider: "AWS" }, team);
    expect(resend.body).toMatchObject({ status: 1 });
    const after = await details(orderId!, team);
    expect(after.version).toBe(5);
    expect(after.version).toBe(await streamLength(orderId!));
  });

  it("item 3 (QUEUE-12, ORDER-11): a move sent with the page's version moves; a stale one is refused with what changed, who and when, and the log is unchanged", async () => {
    const [orderId] = await api.placeOrders(1);
    const manager = await api.login("Manager");
    const admin = await api.login("Admin");
    const seen = (await details(orderId!, admin)).version as number;
    expect(seen).toBe(1);

    // Same version: the move goes through.
    const moved = await api.call("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: "Awaiting Response", expectedVersion: seen }, manager);
    expect(moved).toMatchObject({ status: 200, body: { status: 1 } });

    // The admin's page still shows version 1.
    const before = await api.eventCount();
    const stale = await api.call("PUT", "/admin/move-order-status", { orderId: [orderId], expectedVersion: seen }, admin);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ status: 0, message: ORDER_CHANGED_MESSAGE, data: { changed: true, version: 2 } });
    const changes = stale.body.data.changes as Record<string, any>[];
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      position: 2,
      event_type: "OrderStatusChanged",
      actor_kind: "staff",
      actor_name: api.staff.Manager.name,
      actor_role: "Manager",
    });
    expect(changes[0]!.summary).toMatch(/Awaiting/);
    expect(changes[0]!.request_ip).toMatch(/127\.0\.0\.1/);
    expect(Date.now() - Date.parse(changes[0]!.occurred_at)).toBeLessThan(60_000);
    expect(await api.eventCount()).toBe(before);
    expect(await streamLength(orderId!)).toBe(2);

    // A Team member is told who and what, but not from which address: addresses are audit data.
    const teamStale = await api.call("POST", "/admin/add-new-remark", { orderId, remark: "Called back", whatsapp: "Y", expectedVersion: seen }, await api.login("Team"));
    expect(teamStale.status).toBe(409);
    expect(teamStale.body.data.changes[0]).toMatchObject({ actor_name: api.staff.Manager.name, request_ip: null });
    expect(await api.eventCount()).toBe(before);

    // Refund move with a stale version: the same answer; with the version now it goes on.
    const refundStale = await api.call("PUT", "/admin/change-order-status", { orderId: orderId, updatingStatus: "Deleted", expectedVersion: 1 }, admin);
    expect(refundStale).toMatchObject({ status: 409, body: { message: ORDER_CHANGED_MESSAGE, data: { version: 2 } } });
    expect(await api.eventCount()).toBe(before);
    const current = await api.call("PUT", "/admin/move-order-status", { orderId: [orderId], expectedVersion: stale.body.data.version }, admin);
    expect(current.body).toMatchObject({ status: 1 });
  });

  it("item 3: a version belongs to one order: several ids with an expectedVersion are refused before anything runs", async () => {
    const [first, second] = await api.placeOrders(2);
    const manager = await api.login("Manager");
    const before = await api.eventCount();
    for (const [method, apiPath, body] of [
      ["PUT", "/admin/change-order-status", { orderId: [first, second], updatingStatus: "Awaiting Response", expectedVersion: 1 }],
      ["PUT", "/admin/move-order-status", { orderId: [first, second], expectedVersion: 1 }],
      ["PUT", "/admin/move-to-complete-refund", { orderId: [first, second], expectedVersion: 1 }],
    ] as const) {
      expect(await api.call(method, apiPath, body, manager)).toMatchObject({ status: 400, body: { status: 0, message: "expectedVersion applies to one order." } });
    }
    expect(await api.eventCount()).toBe(before);
  });

  it("item 3 (ORDER-10): a remark with a flag on a stale version is refused; a plain comment on a stale version is added", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    const manager = await api.login("Manager");
    await api.call("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: "Awaiting Response" }, manager);
    const before = await api.eventCount();

    const flagged = await api.call("POST", "/admin/add-new-remark", remark(orderId!, { statusRefund: true, expectedVersion: 1 }), team);
    expect(flagged).toMatchObject({ status: 409, body: { status: 0, message: ORDER_CHANGED_MESSAGE, data: { version: 2 } } });
    expect(await api.eventCount()).toBe(before);

    const plain = await api.call("POST", "/admin/add-new-remark", remark(orderId!, { expectedVersion: 1 }), team);
    expect(plain.body).toMatchObject({ status: 1, message: "Remark has been added successfully" });
    expect(await streamLength(orderId!)).toBe(3);
  });

  it("item 3 (ORDER-3): an upload on a stale version is refused and leaves no file behind; on the current version it is stored", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, team);
    const docs = path.join(api.dataDir, "uploads", "docs", orderId!);
    const before = await api.eventCount();

    const stale = await upload({ orderId: orderId!, email: "juan@example.com", mailServiceProvider: "AWS", expectedVersion: "1" }, team);
    expect(stale).toMatchObject({ status: 409, body: { status: 0, message: ORDER_CHANGED_MESSAGE, data: { version: 2 } } });
    expect(stale.body.data.changes.map((c: Record<string, unknown>) => c.event_type)).toEqual(["OrderAssigned"]);
    expect(await api.eventCount()).toBe(before);
    expect(await filesUnder(docs)).toEqual([]);
    // Not even the order's folder: refused uploads to made-up ids would otherwise leave one each.
    expect(existsSync(docs)).toBe(false);
    const madeUp = await upload({ orderId: "888888880001", email: "juan@example.com", mailServiceProvider: "AWS" }, team);
    expect(madeUp.status).toBe(404);
    expect(existsSync(path.join(api.dataDir, "uploads", "docs", "888888880001"))).toBe(false);

    const fresh = await upload({ orderId: orderId!, email: "juan@example.com", mailServiceProvider: "AWS", expectedVersion: "2" }, team);
    expect(fresh.body.status).toBe(1);
    expect(await filesUnder(docs)).toEqual([path.join(docs, "visa.pdf")]);
  });

  it("item 1 (QUEUE-12): a Team member reading an order assigned to someone else still gets its details", async () => {
    const [orderId] = await api.placeOrders(1);
    const manager = await api.login("Manager");
    await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, manager);
    const answer = await read(`/admin/get-orders-details/${orderId}`, await api.login("Team"), orderId!);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ order_id: orderId, assign_to_id: api.staff.Manager.id, version: 2 });
  });

  it("item 2 (CARD-4): the audit timeline's lines carry the request's IP for staff actions, none for the intake", async () => {
    const [orderId] = await api.placeOrders(1);
    const manager = await api.login("Manager");
    expect((await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, manager)).body).toMatchObject({ status: 1 });
    const timeline = await read(`/audit/orders/${orderId}/timeline`, manager, orderId!);
    expect(timeline.status).toBe(200);
    const lines = timeline.body.data.lines as Record<string, any>[];
    expect(lines.map((line): unknown[] => [line.event_type, line.actor_kind])).toEqual([
      ["OrderPlaced", "system"],
      ["OrderAssigned", "staff"],
    ]);
    expect(lines[0]!.request_ip).toBeNull();
    expect(lines[1]!.request_ip).toMatch(/127\.0\.0\.1/);
  });

  describe("item 4: presence", () => {
    const presence = (body: Record<string, unknown>, token: string) => api.call("POST", "/admin/order-presence", body, token);
    /** An order as the page has it: placed, and read once (the page opens on its details). */
    const openOrder = async () => {
      const [orderId] = await api.placeOrders(1);
      await details(orderId!, await api.login("Admin"));
      return orderId!;
    };
    let next = 0;
    const viewId = () => `view-${Date.now().toString(36)}-${next++}`;

    it("two members see each other, never their own page, with a 3 s heartbeat; leaving removes the page at once", async () => {
      const orderId = await openOrder();
      const team = await api.login("Team");
      const manager = await api.login("Manager");
      const teamView = viewId();
      const managerView = viewId();

      const first = await presence({ orderId, viewId: teamView }, team);
      expect(first).toMatchObject({ status: 200, body: { status: 1, data: { viewers: [], heartbeatMs: 3000 } } });
      const second = await presence({ orderId, viewId: managerView }, manager);
      expect(second.body.data.viewers).toEqual([
        { viewId: teamView, staffId: api.staff.Team.id, name: api.staff.Team.name, role: "Team", since: expect.any(String) },
      ]);
      const again = await presence({ orderId, viewId: teamView }, team);
      expect(again.body.data.viewers.map((v: Record<string, unknown>) => v.staffId)).toEqual([api.staff.Manager.id]);

      // Leaving is told nobody: a page cannot watch who views an order without being seen itself.
      const left = await presence({ orderId, viewId: managerView, leaving: true }, manager);
      expect(left).toMatchObject({ status: 200, body: { data: { viewers: [] } } });
      expect((await presence({ orderId, viewId: teamView }, team)).body.data.viewers).toEqual([]);
    });

    it("an order that does not exist has no presence", async () => {
      expect(await presence({ orderId: "9876543210", viewId: viewId() }, await api.login("Team"))).toMatchObject({ status: 404, body: { status: 0 } });
    });

    it("a page silent for three heartbeats is gone", async () => {
      const orderId = await openOrder();
      const silent = viewId();
      await presence({ orderId, viewId: silent }, await api.login("Manager"));
      const watcher = viewId();
      expect((await presence({ orderId, viewId: watcher }, await api.login("Team"))).body.data.viewers).toHaveLength(1);
      // The manager's page last spoke 9.5 s ago (the database's clock is the one every instance shares).
      await api.runtime.deps.readDb.query(`update order_presence set seen_at = seen_at - interval '9500 milliseconds' where view_id = $1`, [silent]);
      expect((await presence({ orderId, viewId: watcher }, await api.login("Team"))).body.data.viewers).toEqual([]);
    });

    it("another member can neither remove nor take over my page", async () => {
      const orderId = await openOrder();
      const mine = viewId();
      await presence({ orderId, viewId: mine }, await api.login("Team"));
      const manager = await api.login("Manager");
      expect((await presence({ orderId, viewId: mine, leaving: true }, manager)).status).toBe(200);
      expect(await presence({ orderId, viewId: mine }, manager)).toMatchObject({ status: 409, body: { status: 0 } });
      const watcher = await presence({ orderId, viewId: viewId() }, await api.login("Admin"));
      expect(watcher.body.data.viewers).toEqual([expect.objectContaining({ viewId: mine, staffId: api.staff.Team.id })]);
    });

    it(`a member holds at most ${MAX_VIEWS_PER_STAFF} pages; a heartbeat of one of them still works at the cap`, async () => {
      const orderIds = [await openOrder()];
      const telecaller = await api.login("Telecaller");
      const views = Array.from({ length: MAX_VIEWS_PER_STAFF }, viewId);
      for (const view of views) expect((await presence({ orderId: orderIds[0], viewId: view }, telecaller)).status).toBe(200);
      expect(await presence({ orderId: orderIds[0], viewId: viewId() }, telecaller)).toMatchObject({ status: 429, body: { status: 0 } });
      expect((await presence({ orderId: orderIds[0], viewId: views[0] }, telecaller)).body.data.viewers).toHaveLength(MAX_VIEWS_PER_STAFF - 1);
      // Closing one frees a place.
      await presence({ orderId: orderIds[0], viewId: views[1], leaving: true }, telecaller);
      expect((await presence({ orderId: orderIds[0], viewId: viewId() }, telecaller)).status).toBe(200);
      // Pages gone silent free theirs, on the very call that finds them expired.
      await api.runtime.deps.readDb.query(`update order_presence set seen_at = seen_at - interval '9500 milliseconds' where staff_id = $1`, [api.staff.Telecaller.id]);
      expect((await presence({ orderId: orderIds[0], viewId: viewId() }, telecaller)).status).toBe(200);
    });
  });
});
