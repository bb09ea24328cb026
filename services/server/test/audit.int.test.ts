import { randomUUID } from "node:crypto";
import { decodeEvent, encodeEvent, mailStream, staffStream, type EventId, type StaffId } from "@etd/events";
import { postgresAvailable } from "@etd/infra/test-database";
import * as Result from "effect/Result";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERASURE_REACTOR } from "@etd/reactors";
import { waitForReactor } from "./support/reactors.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * CARD-4, issue 14: auditors replay an order (its history with its mails', the order at three
 * moments, the diff of two), a folder at a past moment and one member's activity, all folded from
 * the log. Moments are taken from the clock between steps, with a pause either side, so each one
 * falls strictly between two events.
 */

const available = await postgresAvailable();
const PDF = Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const MOMENT_MESSAGE = "Give the moment as an ISO date and time, e.g. 2025-03-14T10:04:12Z.";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const moment = async () => {
  await pause(5);
  const now = new Date().toISOString();
  await pause(5);
  return now;
};

interface Line {
  readonly stream: string;
  readonly position: string;
  readonly eventId: string;
  readonly type: string;
  readonly occurredAt: string;
  readonly actor: { kind: string; id: string | null; name: string; role: string | null };
  readonly requestIp: string | null;
  readonly summary: string;
  readonly orderId: string | null;
  readonly data: Record<string, unknown>;
}

describe.skipIf(!available)("auditors replay an order, a folder and a member's work (CARD-4, issue 14)", () => {
  let api: TestApi;
  let manager: string;
  let team: string;

  beforeAll(async () => {
    api = await startTestApi();
    manager = await api.login("Manager");
    team = await api.login("Team");
  });

  afterAll(async () => {
    await api?.close();
  });

  const get = async (path: string, token = manager) => api.call("GET", path, undefined, token);
  const expectOk = async (path: string, token = manager): Promise<any> => {
    const answer = await get(path, token);
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body.data;
  };

  const upload = async (orderId: string, fileName = "etravel.pdf") => {
    const form = new FormData();
    form.append("orderId", orderId);
    form.append("email", "juan.traveller@example.com");
    form.append("mailServiceProvider", "AWS");
    form.append("uploadVisaDoc", new Blob([new Uint8Array(PDF)]), fileName);
    const response = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: team } });
    expect(response.status).toBe(200);
    return (await api.runtime.deps.store.readStream(`order-${orderId}`)).at(-1)!.eventId;
  };

  /** Waits for the mail reactor to record the upload's mail as sent (the outbox: no provider credentials here). */
  const mailSent = async (mailId: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const events = await api.runtime.deps.store.readStream(mailStream(mailId as EventId));
      if (events.some((raw) => raw.type === "MailSent")) return;
      if (Date.now() > deadline) throw new Error(`mail ${mailId} was not sent`);
      await pause(50);
    }
  };

  const status = (orderId: string, updatingStatus: string, token: string) =>
    api.call("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus }, token);

  it("CARD-4 replay: the history interleaves the order's and its mail's events with sentences, actors and IPs; the slider's three moments and the diff of two", async () => {
    const [orderId] = await api.placeOrders(1);
    const t0 = await moment();
    expect((await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, team)).status).toBe(200);
    expect((await api.call("POST", "/admin/add-new-remark", { orderId, remark: "Called, no answer.", telephone: "Y" }, team)).status).toBe(200);
    const t1 = await moment();
    expect((await status(orderId!, "Awaiting", manager)).status).toBe(200);
    expect((await api.call("POST", "/admin/add-new-remark", { orderId, remark: "Passport scan received.", whatsapp: "Y" }, team)).status).toBe(200);
    const mailId = await upload(orderId!);
    await mailSent(mailId);
    expect((await status(orderId!, "Completed", team)).status).toBe(200);
    const t2 = await moment();

    // History: the order's events and its mail's, in log order, each with its sentence and actor.
    const history = (await expectOk(`/audit/orders/${orderId}/history`)) as Line[];
    expect(history.map((e) => e.type)).toEqual([
      "OrderPlaced",
      "OrderAssigned",
      "RemarkAdded",
      "OrderStatusChanged",
      "RemarkAdded",
      "DocumentUploaded",
      "MailQueued",
      "MailSent",
      "OrderStatusChanged",
    ]);
    expect(history.map((e) => e.stream)).toEqual([...Array(6).fill(`order-${orderId}`), `mail-${mailId}`, `mail-${mailId}`, `order-${orderId}`]);
    const positions = history.map((e) => e.position.split(".").map(BigInt) as [bigint, bigint]);
    expect(positions.every(([tx, seq], i) => i === 0 || tx > positions[i - 1]![0] || (tx === positions[i - 1]![0] && seq > positions[i - 1]![1]))).toBe(true);
    expect(history.every((e) => e.orderId === orderId)).toBe(true);
    const intake = (history[0]!.data as { processingMode: string }).processingMode === "priority" ? "Priority" : "New";
    expect(history[0]).toMatchObject({ actor: { kind: "system", id: null, name: "order-intake", role: null }, requestIp: null });
    expect(history[0]!.summary).toMatch(/^order-intake placed the order \(/);
    expect(history[1]).toMatchObject({
      actor: { kind: "staff", id: api.staff.Team.id, name: "Tessa Cruz", role: "Team" },
      requestIp: "127.0.0.1",
      summary: `Tessa Cruz (Team) assigned the order to themselves; status ${intake} → Pending`,
    });
    expect(history[2]!.summary).toBe("Tessa Cruz (Team) added a comment (flags: Telephone)");
    expect(history[3]).toMatchObject({ actor: { name: "Marco Villanueva", role: "Manager" }, summary: "Marco Villanueva (Manager) moved the order from Pending to Awaiting Customer" });
    expect(history[5]!.summary).toBe("Tessa Cruz (Team) uploaded etravel.pdf and asked AWS to mail it");
    expect(history[6]).toMatchObject({ actor: { kind: "system", name: "mail" }, requestIp: null });
    expect(history[6]!.summary).toMatch(/^mail queued attempt 1 of the document mail for AWS, via outbox/);
    expect(history[8]!.summary).toBe("Tessa Cruz (Team) moved the order from Awaiting Customer to Completed");

    // As of three moments: the statuses, the assignee and the remarks of each.
    const at0 = await expectOk(`/audit/orders/${orderId}/as-of?at=${t0}`);
    expect(at0).toMatchObject({ asOf: t0, eventsApplied: 1, order: { status: intake }, remarks: [] });
    expect(at0.order.assignee).toBeUndefined();
    const at1 = await expectOk(`/audit/orders/${orderId}/as-of?at=${t1}`);
    expect(at1).toMatchObject({ eventsApplied: 3, order: { status: "Pending", statusLabel: "Pending", assignee: { staff: { name: "Tessa Cruz" } } } });
    expect(at1.remarks).toEqual([{ at: history[2]!.occurredAt, by: "Tessa Cruz", remark: "Called, no answer.", flags: ["telephone"] }]);
    const at2 = await expectOk(`/audit/orders/${orderId}/as-of?at=${t2}`);
    expect(at2).toMatchObject({ eventsApplied: 7, order: { status: "Completed", assignee: { staff: { name: "Tessa Cruz" } }, document: { fileName: "etravel.pdf" } } });
    expect(at2.remarks.map((r: { remark: string; flags: string[] }) => [r.remark, r.flags])).toEqual([
      ["Called, no answer.", ["telephone"]],
      ["Passport scan received.", ["whatsapp"]],
    ]);
    // The slider asks at each event's own time: that event is included.
    const atMove = await expectOk(`/audit/orders/${orderId}/as-of?at=${history[3]!.occurredAt}`);
    expect(atMove).toMatchObject({ eventsApplied: 4, order: { status: "Awaiting" } });

    // The diff names exactly the fields that changed, with their kinds.
    const kinds = (changes: { path: string; kind: string }[]) => changes.map((c) => `${c.kind} ${c.path}`);
    const early = await expectOk(`/audit/orders/${orderId}/diff?from=${t0}&to=${t1}`);
    expect(kinds(early.changes)).toEqual([
      "added order.assignee",
      "changed order.lastChange.at",
      "changed order.lastChange.by",
      "changed order.lastChange.what",
      "changed order.status",
      "changed order.statusLabel",
      "added remarks.0",
    ]);
    expect(early.changes.find((c: { path: string }) => c.path === "order.status")).toEqual({ path: "order.status", kind: "changed", before: intake, after: "Pending" });
    expect(early.changes.find((c: { path: string }) => c.path === "remarks.0")).toMatchObject({ after: { remark: "Called, no answer." } });
    expect(early.changes.find((c: { path: string }) => c.path === "remarks.0")).not.toHaveProperty("before");
    expect(early.events.map((e: Line) => e.type)).toEqual(["OrderAssigned", "RemarkAdded"]);
    const late = await expectOk(`/audit/orders/${orderId}/diff?from=${t1}&to=${t2}`);
    expect(kinds(late.changes)).toEqual([
      "added order.document",
      "changed order.lastChange.at",
      "changed order.lastChange.what",
      "changed order.status",
      "changed order.statusLabel",
      "added remarks.1",
    ]);
    expect(late.events.map((e: Line) => e.type)).toEqual(["OrderStatusChanged", "RemarkAdded", "DocumentUploaded", "OrderStatusChanged"]);
    // Backwards, what was added reads as removed.
    const back = await expectOk(`/audit/orders/${orderId}/diff?from=${t2}&to=${t1}`);
    expect(kinds(back.changes)).toContain("removed order.document");
    expect(kinds(back.changes)).toContain("removed remarks.1");
    expect(back.changes.find((c: { path: string }) => c.path === "remarks.1")).not.toHaveProperty("after");
    expect(back.events.map((e: Line) => e.type)).toEqual(late.events.map((e: Line) => e.type));
    expect((await expectOk(`/audit/orders/${orderId}/diff?from=${t2}&to=${t2}`)).changes).toEqual([]);

    // Staff activity: exactly the member's events in the range, any stream, oldest first, linked to the order.
    const activity = await expectOk(`/audit/staff/${api.staff.Team.id}/activity?from=${t0}&to=${t2}`);
    expect(activity).toMatchObject({ staffId: api.staff.Team.id, from: t0, to: t2, truncated: false });
    expect(activity.events.map((e: Line) => [e.type, e.orderId])).toEqual([
      ["OrderAssigned", orderId],
      ["RemarkAdded", orderId],
      ["RemarkAdded", orderId],
      ["DocumentUploaded", orderId],
      ["OrderStatusChanged", orderId],
    ]);
    expect(activity.events.every((e: Line) => e.actor.id === api.staff.Team.id)).toBe(true);
    const fromT1 = await expectOk(`/audit/staff/${api.staff.Team.id}/activity?from=${t1}&to=${t2}`);
    expect(fromT1.events.map((e: Line) => e.type)).toEqual(["RemarkAdded", "DocumentUploaded", "OrderStatusChanged"]);
    // Both ends are included: a range of one event's own instant holds that event.
    const one = await expectOk(`/audit/staff/${api.staff.Manager.id}/activity?from=${history[3]!.occurredAt}&to=${history[3]!.occurredAt}`);
    expect(one.events.map((e: Line) => e.eventId)).toEqual([history[3]!.eventId]);
  });

  it("CARD-4 folder at a moment: the orders in it then, not one that entered later, still one that left since; erased orders show no one", async () => {
    const [stays, leaves, enters] = await api.placeOrders(3);
    for (const orderId of [stays, leaves]) expect((await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, team)).status).toBe(200);
    const then = await moment();
    expect((await status(leaves!, "Completed", team)).status).toBe(200);
    expect((await api.call("PUT", "/admin/assign-order-status", { orderId: [enters], assignto: "x" }, team)).status).toBe(200);
    const now = await moment();

    const ids = (answer: { rows: { orderId: string }[] }) => answer.rows.map((row) => row.orderId).sort();
    const pendingThen = await expectOk(`/audit/queues/pendingOrder?at=${then}`);
    expect(pendingThen).toMatchObject({ at: then, folder: "pendingOrder", count: 2, page: 1, pageSize: 25 });
    expect(ids(pendingThen)).toEqual([stays, leaves].sort());
    const rows = pendingThen.rows as { createdAt: string; orderId: string; status: string; statusLabel: string; assigneeName: string; name: string; email: string | null }[];
    expect(rows.map((row) => row.createdAt)).toEqual(rows.map((row) => row.createdAt).sort().reverse());
    expect(rows.every((row) => row.status === "Pending" && row.statusLabel === "Pending" && row.assigneeName === "Tessa Cruz" && row.name !== "" && row.email !== null)).toBe(true);
    expect(ids(await expectOk(`/audit/queues/pending?at=${now}`))).toEqual([stays, enters].sort());
    expect(ids(await expectOk(`/audit/queues/completedOrder?at=${now}`))).toContain(leaves);
    expect(ids(await expectOk(`/audit/queues/completedOrder?at=${then}`))).not.toContain(leaves);

    // My Orders is a member's: the given one's, else the asking member's (here the Manager, who holds none).
    const mine = await expectOk(`/audit/queues/myOrder?at=${then}&staffId=${api.staff.Team.id}`);
    expect(ids(mine)).toEqual([stays, leaves].sort());
    expect(await expectOk(`/audit/queues/myOrder?at=${then}`)).toMatchObject({ count: 0, rows: [] });
    // Before the orders were placed they were in no folder at all.
    const before = await expectOk(`/audit/queues/allOrder?at=2020-01-01T00:00:00Z`);
    expect(before).toMatchObject({ count: 0, rows: [] });
    // Past the last page: the count, no rows.
    expect(await expectOk(`/audit/queues/pendingOrder?at=${then}&page=2`)).toMatchObject({ count: 2, page: 2, rows: [] });

    // Erased since: the row keeps its place in the folder at that moment, without the person;
    // the replay no longer names the file staff named after the traveller.
    const secret = "passport_Juan_Dela_Cruz";
    await mailSent(await upload(leaves!, `${secret}.pdf`));
    expect(JSON.stringify(await expectOk(`/audit/orders/${leaves}/history`))).toContain(secret);
    const admin = await api.login("Admin");
    const erased = await api.call("PUT", "/admin/change-order-status", { orderId: [leaves], updatingStatus: "Deleted", permanentDeletedFlag: true }, admin);
    expect(erased.status).toBe(200);
    await waitForReactor(api.runtime.driver, ERASURE_REACTOR, erased.body.data.position as string);
    const afterErasure = await expectOk(`/audit/queues/pendingOrder?at=${then}`);
    expect(afterErasure.count).toBe(2);
    expect(afterErasure.rows.find((row: { orderId: string }) => row.orderId === leaves)).toMatchObject({ name: "", email: null, status: "Pending" });
    const raw = (await api.runtime.deps.store.readStream(`order-${leaves}`))[0]!;
    const placed = decodeEvent(raw);
    expect(Result.isSuccess(placed) && placed.success.type === "OrderPlaced" && placed.success.data.personal).toEqual({ erased: true });
    const erasedHistory = (await expectOk(`/audit/orders/${leaves}/history`)) as Line[];
    expect(JSON.stringify(erasedHistory)).not.toContain(secret);
    expect(erasedHistory.find((e) => e.type === "DocumentUploaded")!.summary).toBe("Tessa Cruz (Team) uploaded the document and asked AWS to mail it");
    expect(erasedHistory.find((e) => e.type === "MailQueued")!.data).toMatchObject({ personal: { erased: true } });
    const asOfErased = await expectOk(`/audit/orders/${leaves}/as-of?at=${erasedHistory.at(-2)!.occurredAt}`);
    // Issue 25: the file's name was sealed with the rest: the erased order's document has none.
    expect(asOfErased.order.document).toMatchObject({ processedBy: { name: "Tessa Cruz" } });
    expect(asOfErased.order.document).not.toHaveProperty("fileName");
    expect(JSON.stringify(asOfErased)).not.toContain(secret);
    const activity = await expectOk(`/audit/staff/${api.staff.Team.id}/activity?from=${then}&to=${new Date().toISOString()}`);
    expect(activity.events.map((e: Line) => e.type)).toContain("DocumentUploaded");
    expect(JSON.stringify(activity)).not.toContain(secret);

    expect(await get(`/audit/queues/notAFolder?at=${then}`)).toMatchObject({ status: 404, body: { status: 0, message: 'There is no folder named "notAFolder".' } });
  });

  it("CARD-4 staff activity: any stream (a team member added: no order), not another member's, and at most 1,000 events with `truncated`", async () => {
    const from = await moment();
    const added = await api.call("POST", "/admin/add-team-member", { name: "Paolo Reyes", email: "paolo@demo.local", type: "Team", password: "a long enough password" }, manager);
    expect(added.status).toBe(200);
    const [orderId] = await api.placeOrders(1);
    expect((await api.call("POST", "/admin/add-new-remark", { orderId, remark: "Checked the dates." }, team)).status).toBe(200);
    const to = await moment();
    const managers = await expectOk(`/audit/staff/${api.staff.Manager.id}/activity?from=${from}&to=${to}`);
    expect(managers.events).toEqual([
      expect.objectContaining({
        stream: `staff-${added.body.data.id as string}`,
        type: "StaffMemberAdded",
        orderId: null,
        requestIp: "127.0.0.1",
        summary: "Marco Villanueva (Manager) added Paolo Reyes to the team as Team",
      }),
    ]);
    expect(managers.truncated).toBe(false);

    // 1,001 events of one member (appended straight to the log: only the count matters here).
    const night = api.staff["Night Staff"];
    const occurredAt = new Date().toISOString();
    const actor = { kind: "staff", id: night.id as StaffId, name: night.name, role: "Night Staff" } as const;
    const many = Array.from({ length: 1_001 }, (_, i) => ({
      eventId: randomUUID(),
      ...encodeEvent({ type: "PasswordChanged", data: { staffId: night.id as StaffId }, metadata: { actor, correlationId: `audit-cap-${String(i)}`, occurredAt } } as Parameters<typeof encodeEvent>[0]),
    }));
    await api.runtime.deps.store.append(staffStream(night.id as StaffId), many, { expectedVersion: "any" });
    const capped = await expectOk(`/audit/staff/${night.id}/activity?from=${from}&to=${new Date().toISOString()}`);
    expect(capped.events).toHaveLength(1_000);
    expect(capped.truncated).toBe(true);
    expect(capped.events[0]).toMatchObject({ correlationId: "audit-cap-0", summary: "Nina Bautista (Night Staff) changed their own password", orderId: null });
    expect(await expectOk(`/audit/staff/${night.id}/activity?from=${from}&to=${to}`)).toMatchObject({ events: [], truncated: false });
  });

  it("CARD-4 refusals: an unknown order or member is 404; a bad, missing or reversed moment is 400 with the contract's message", async () => {
    const [orderId] = await api.placeOrders(1);
    expect(await get(`/audit/orders/999999999/history`)).toMatchObject({ status: 404, body: { message: "Order 999999999 was not found." } });
    expect((await get(`/audit/orders/not-an-order/as-of?at=2025-01-01T00:00:00Z`)).status).toBe(404);
    expect((await get(`/audit/staff/nobody-at-all/activity?from=2025-01-01T00:00:00Z&to=2025-01-02T00:00:00Z`)).status).toBe(404);
    const refused = async (path: string, message: string) => expect(await get(path), path).toMatchObject({ status: 400, body: { status: 0, message } });
    await refused(`/audit/orders/${orderId}/as-of?at=yesterday`, MOMENT_MESSAGE);
    // Moments the events' timestamps cannot be compared with: "1" (Date.parse: 2001) and a six-digit year.
    await refused(`/audit/orders/${orderId}/as-of?at=1`, MOMENT_MESSAGE);
    await refused(`/audit/orders/${orderId}/as-of?at=%2B275760-09-13T00:00:00.000Z`, MOMENT_MESSAGE);
    // An offset that carries a moment out of years 0001 to 9999 in UTC (issue 26: PostgreSQL would read another year).
    await refused(`/audit/orders/${orderId}/as-of?at=0001-01-01T00:00%2B01:00`, MOMENT_MESSAGE);
    await refused(`/audit/orders/${orderId}/as-of?at=9999-12-31T23:00-02:00`, MOMENT_MESSAGE);
    for (const edge of ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "9999-12-31T23:00%2B02:00"]) {
      const answer = await get(`/audit/orders/${orderId}/as-of?at=${edge}`);
      expect([answer.status, answer.body.message], edge).not.toEqual([400, MOMENT_MESSAGE]);
      expect(answer.status, edge).toBeLessThan(500);
    }
    await refused(`/audit/orders/${orderId}/as-of`, "Give the moment with ?at=.");
    await refused(`/audit/orders/${orderId}/diff?from=2025-01-01T00:00:00Z`, "Give both moments with ?from= and ?to=.");
    await refused(`/audit/queues/newOrder`, "Give the moment with ?at=.");
    await refused(`/audit/queues/newOrder?at=2025-01-01T00:00:00Z&page=0`, "Page must be a whole number of 1 or more.");
    await refused(`/audit/staff/${api.staff.Team.id}/activity?from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z`, "The start of the range must not be after its end.");
    await refused(`/audit/staff/${api.staff.Team.id}/activity?from=soon&to=2025-01-01T00:00:00Z`, MOMENT_MESSAGE);
  });
});
