import type { AddressInfo } from "node:net";
import * as Result from "effect/Result";
import type { Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BACKLOG_FOLDERS,
  MEMBER_DAY_COLUMNS,
  type BacklogRow,
  type DashboardDay,
  type MailHealth,
  type MemberDay,
} from "@etd/contract";
import {
  decodeEvent,
  isMailRequestType,
  policyInForce,
  replayClock,
  stageAfter,
  statusAfter,
  type AnyEvent,
  type IsoDateTime,
  type OrderEvent,
  type OrderPlaced,
  type OrderStatus,
  type ServiceLevelPolicySet,
} from "@etd/events";
import { createApp } from "@etd/api/internal/app.ts";
import { DEMO_STAFF, seedDemo } from "@etd/api/internal/seed/seed.ts";
import { openRuntime, type Runtime } from "../src/runtime.ts";

/*
 * Issue 27, the day at a glance: every figure the dashboard answers for the demo data equals the
 * same figure computed here straight from the log (store.readAll), with the clock module for the
 * service level. The figures are as of the answer's `asOf`, so the test needs no fixed clock.
 * An Admin gets the team; a Team member only their own line and figures, whatever they ask.
 */

const available = await postgresAvailable();
const PASSWORD = "demo password for the dashboard test";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const ms = (at: string) => Date.parse(at);

/** The log, decoded as the projector reads it. */
const readLog = async (runtime: Runtime): Promise<{ event: AnyEvent; eventId: string }[]> => {
  const all: { event: AnyEvent; eventId: string }[] = [];
  let after;
  for (;;) {
    const page = await runtime.deps.store.readAll({ ...(after === undefined ? {} : { after }), limit: 5000 });
    if (page.length === 0) return all;
    for (const raw of page) all.push({ event: Result.getOrThrow(decodeEvent(raw)), eventId: raw.eventId });
    after = page.at(-1)!.position;
  }
};

interface OrderLife {
  readonly history: OrderEvent[];
  status: OrderStatus;
  assigneeId: string | null;
  assignedAt: string | null;
}

/** Every dashboard figure, computed from the log alone. */
const fromTheLog = (log: readonly { event: AnyEvent; eventId: string }[], asOf: string, staffId?: string): Omit<DashboardDay, "asOf" | "scope"> => {
  const now = ms(asOf);
  const today = asOf.slice(0, 10);
  const dayStart = ms(`${today}T00:00:00.000Z`);
  const policies = log.map((e) => e.event).filter((e): e is ServiceLevelPolicySet => e.type === "ServiceLevelPolicySet");
  const orders = new Map<string, OrderLife>();
  const names = new Map<string, { name: string; deleted: boolean }>();
  const uploads: { staffId: string; at: string; within: boolean; assignedMs: number | null }[] = [];
  const mails = new Map<string, { orderId: string; askedAt: string; stage: string; sent: boolean }>();
  const SENT = new Set(["sent", "delivered", "bounced", "complained"]);
  const STAGE: Record<string, string> = { MailQueued: "queued", MailSent: "sent", MailFailed: "failed", MailOutcomeUnknown: "unknown", MailDelivered: "delivered", MailBounced: "bounced", MailComplained: "complained", MailRetryRequested: "queued" };
  for (const { event, eventId } of log) {
    if (event.type === "StaffMemberAdded" || event.type === "StaffMemberUpdated") names.set(event.data.staffId, { name: event.data.name, deleted: false });
    if (event.type === "StaffMemberDeleted") names.set(event.data.staffId, { ...names.get(event.data.staffId)!, deleted: true });
    if (event.type in STAGE && "mailId" in event.data) {
      const mail = mails.get(event.data.mailId);
      if (mail) {
        mail.stage = mail.stage === "asked" ? STAGE[event.type]! : stageAfter(mail.stage, STAGE[event.type]!);
        mail.sent ||= SENT.has(mail.stage);
      }
      continue;
    }
    if (!("orderId" in event.data)) continue;
    const orderId = event.data.orderId;
    if (isMailRequestType(event.type)) mails.set(eventId, { orderId, askedAt: event.metadata.occurredAt, stage: "asked", sent: false });
    if (event.type === "OrderPlaced") {
      orders.set(orderId, { history: [event], status: statusAfter(event)!, assigneeId: null, assignedAt: null });
      continue;
    }
    const order = orders.get(orderId);
    if (!order) continue;
    const orderEvent = event as OrderEvent;
    if (orderEvent.type === "DocumentUploaded") {
      const placed = order.history[0] as OrderPlaced;
      const replay = replayClock([...order.history, orderEvent], policyInForce(policies, placed.metadata.occurredAt), orderEvent.metadata.occurredAt)!;
      uploads.push({
        staffId: orderEvent.data.uploadedBy.id,
        at: orderEvent.metadata.occurredAt,
        within: replay.usedMs <= replay.fold.allowedMs,
        assignedMs: order.assignedAt === null ? null : ms(orderEvent.metadata.occurredAt) - ms(order.assignedAt),
      });
    }
    order.history.push(orderEvent);
    order.status = statusAfter(orderEvent) ?? order.status;
    if (orderEvent.type === "OrderAssigned") [order.assigneeId, order.assignedAt] = [orderEvent.data.assignee.id, orderEvent.metadata.occurredAt];
    if (orderEvent.type === "OrderMovedToOriginalFolder") [order.assigneeId, order.assignedAt] = [null, null];
  }

  const mine = (order: OrderLife) => staffId === undefined || order.assigneeId === staffId;
  const folderOf = (order: OrderLife): string | undefined => {
    const placed = order.history[0] as OrderPlaced;
    const dueToday = placed.data.processingDate <= today;
    const intake = order.assigneeId === null && dueToday;
    const folders: Partial<Record<OrderStatus, string | undefined>> = {
      New: intake ? "newOrder" : undefined,
      Priority: intake ? "priorityOrder" : undefined,
      Pending: "pendingOrder",
      ContactCustomer: "contactCustomerOrder",
      CustomerCalled: "customerCalledOrder",
      Awaiting: "awaitingOrder",
      AwaitingGovt: "awaitingGovtOrder",
    };
    return folders[order.status];
  };
  const backlog: BacklogRow[] = BACKLOG_FOLDERS.map((folder) => {
    const ages = { underHour: 0, oneToFourHours: 0, fourToDayHours: 0, overDay: 0 };
    for (const order of orders.values()) {
      const paidAt = ms(order.history[0]!.metadata.occurredAt);
      if (folderOf(order) !== folder || !mine(order) || paidAt > now) continue;
      const age = now - paidAt;
      ages[age < HOUR ? "underHour" : age < 4 * HOUR ? "oneToFourHours" : age < DAY ? "fourToDayHours" : "overDay"]++;
    }
    return { folder, ...ages };
  });

  let overdue = 0;
  let dueWithinHour = 0;
  for (const order of orders.values()) {
    if (!mine(order)) continue;
    const placed = order.history[0] as OrderPlaced;
    const replay = replayClock(order.history, policyInForce(policies, placed.metadata.occurredAt), asOf as IsoDateTime);
    if (replay?.dueAt === undefined) continue;
    if (ms(replay.dueAt) < now) overdue++;
    else if (ms(replay.dueAt) <= now + HOUR) dueWithinHour++;
  }

  const ownUploads = uploads.filter((u) => staffId === undefined || u.staffId === staffId);
  const sentPerHour = Array.from({ length: 24 }, (_, hour) => ({
    hour,
    today: ownUploads.filter((u) => ms(u.at) >= dayStart && ms(u.at) < dayStart + DAY && new Date(u.at).getUTCHours() === hour).length,
    lastWeek: ownUploads.filter((u) => ms(u.at) >= dayStart - 7 * DAY && ms(u.at) < dayStart - 6 * DAY && new Date(u.at).getUTCHours() === hour).length,
  }));

  const todays = uploads.filter((u) => ms(u.at) >= dayStart && ms(u.at) < dayStart + DAY);
  const open = new Map<string, number>();
  for (const order of orders.values()) {
    if (order.assigneeId !== null && !["Completed", "CompletedRefund", "Deleted"].includes(order.status)) open.set(order.assigneeId, (open.get(order.assigneeId) ?? 0) + 1);
  }
  const ids = new Set([...[...names].filter(([, m]) => !m.deleted).map(([id]) => id), ...todays.map((u) => u.staffId), ...open.keys()]);
  const median = (values: number[]): number | null => {
    if (values.length === 0) return null;
    const sorted = [...values].sort((a, b) => a - b);
    const mid = (sorted.length - 1) / 2;
    return Math.round((sorted[Math.floor(mid)]! + sorted[Math.ceil(mid)]!) / 2);
  };
  const members: MemberDay[] = [...ids]
    .filter((id) => staffId === undefined || id === staffId)
    .map((id) => {
      const theirs = todays.filter((u) => u.staffId === id);
      return {
        staffId: id,
        name: names.get(id)?.name ?? id,
        open: open.get(id) ?? 0,
        processedToday: theirs.length,
        medianAssignedToDocumentMs: median(theirs.flatMap((u) => (u.assignedMs === null ? [] : [u.assignedMs]))),
        withinLevel: theirs.filter((u) => u.within).length,
      };
    })
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.staffId.localeCompare(b.staffId));

  const recent = [...mails].filter(([, m]) => ms(m.askedAt) > now - DAY && ms(m.askedAt) <= now);
  const trouble = (match: (m: { stage: string; sent: boolean; askedAt: string }) => boolean) => {
    const hits = recent.filter(([, m]) => match(m)).sort(([ia, a], [ib, b]) => ms(b.askedAt) - ms(a.askedAt) || (ib < ia ? -1 : 1));
    return { count: hits.length, orderIds: [...new Set(hits.slice(0, 20).map(([, m]) => m.orderId))] };
  };
  const mail: MailHealth = {
    bounced: trouble((m) => m.stage === "bounced"),
    outcomeUnknown: trouble((m) => m.stage === "unknown"),
    notSentAfterHour: trouble((m) => m.stage !== "bounced" && m.stage !== "unknown" && !m.sent && ms(m.askedAt) <= now - HOUR),
  };
  return { backlog, overdue, dueWithinHour, sentPerHour, members, mail: staffId === undefined ? mail : null };
};

describe.skipIf(!available)("the day at a glance (issue 27)", () => {
  let database: TestDatabase;
  let dataDir: string;
  let runtime: Runtime;
  let server: Server;
  let base: string;

  const login = async (email: string) => {
    const answer = await fetch(`${base}/api/admin/admin-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: PASSWORD }) });
    return ((await answer.json()) as { jwtToken: string }).jwtToken;
  };
  const caughtUp = async (token: string, apiPath: string) => {
    const head = await runtime.deps.store.headPosition();
    const { formatPosition } = await import("@etd/event-store");
    for (;;) {
      const response = await fetch(`${base}/api${apiPath}`, { headers: { authorization: token, "x-read-after": formatPosition(head) } });
      if (response.headers.get("x-read-after-reached") === "true") return response;
    }
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), "etd-dashboard-"));
    runtime = await openRuntime({ databaseUrl: database.url, dataDir, jwtSecret: "a-test-secret-that-is-long-enough-0123456789", sessionTtlSeconds: 3600, intakeToken: undefined, maxUploadBytes: 1024 * 1024 });
    await seedDemo(runtime.deps, { password: PASSWORD, orderCount: 400 });
    await (await runtime.startProjectors()).ready;
    server = createApp(runtime.deps).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 240_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await runtime?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("an Admin's dashboard: every figure equals the one computed from the log", async () => {
    const token = await login(DEMO_STAFF[0]!.email);
    const answer = (await (await caughtUp(token, "/admin/dashboard")).json()) as { status: number; data: DashboardDay };
    expect(answer.status).toBe(1);
    const day = answer.data;
    expect(day.scope).toBe("team");
    const expected = fromTheLog(await readLog(runtime), day.asOf);
    expect(day.backlog).toEqual(expected.backlog);
    expect({ overdue: day.overdue, dueWithinHour: day.dueWithinHour }).toEqual({ overdue: expected.overdue, dueWithinHour: expected.dueWithinHour });
    expect(day.sentPerHour).toEqual(expected.sentPerHour);
    expect(day.members).toEqual(expected.members);
    expect(day.mail).toEqual(expected.mail);
    // The demo tells a story: something in the backlog, members with work, documents sent.
    expect(day.backlog.some((row) => row.overDay + row.fourToDayHours + row.oneToFourHours + row.underHour > 0)).toBe(true);
    expect(day.members.length).toBeGreaterThanOrEqual(DEMO_STAFF.length);
  });

  it("a Team member sees only their own line and figures, and no mail health", async () => {
    const token = await login(DEMO_STAFF[2]!.email);
    const answer = (await (await caughtUp(token, "/admin/dashboard?staffId=someone-else")).json()) as { data: DashboardDay };
    const day = answer.data;
    expect(day.scope).toBe("own");
    const me = day.members[0]!.staffId;
    expect(day.members.map((m) => m.name)).toEqual([DEMO_STAFF[2]!.name]);
    const expected = fromTheLog(await readLog(runtime), day.asOf, me);
    expect(day).toEqual({ asOf: day.asOf, scope: "own", ...expected });
  });

  it("the per-member table as CSV for an Admin, recorded as DataExported; refused to a Team member", async () => {
    const token = await login(DEMO_STAFF[0]!.email);
    const response = await caughtUp(token, "/admin/dashboard/export-members");
    expect(response.status).toBe(200);
    const text = await response.text();
    const [header] = text.replace(/^\uFEFF/, "").split("\r\n");
    expect(header).toBe(MEMBER_DAY_COLUMNS.map((column) => column.header).join(","));
    const rows = await runtime.driver.query(`select data from es_events where type = 'DataExported' order by global_position desc limit 1`);
    expect(rows[0]!.data).toMatchObject({ what: "report", report: "team-day" });
    const team = await fetch(`${base}/api/admin/dashboard/export-members`, { headers: { authorization: await login(DEMO_STAFF[2]!.email) } });
    expect(team.status).toBe(403);
  });
});
