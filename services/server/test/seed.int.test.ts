import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { buffer } from "node:stream/consumers";
import { tmpdir } from "node:os";
import path from "node:path";
import { comparePositions, parsePosition } from "@etd/event-store";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@etd/api/internal/app.ts";
import { openRuntime, type Runtime } from "../src/runtime.ts";
import { DEMO_HISTORY_DAYS, seedDemo } from "@etd/api/internal/seed/seed.ts";

/*
 * The demo data tells a story in time (issue 10 item 10): seeded as a historical import, each
 * event carries the moment it happened over the last 60 days, in order within its order, so
 * refund dates and the date-range reports differ from day to day. A command sent afterwards is
 * stamped with the server's clock.
 *
 * Issue 12: completed orders come with their uploaded document (a real PDF or PNG in storage),
 * its mail's recorded delivery (delivered, bounced, failed), reminders and customer downloads, so
 * Email History, Download History, Processed By and Order Processed have content; and starting
 * the mail reactor afterwards sends none of it again.
 *
 * Issue 27: the demo shows work management: a service-level policy tightened two weeks ago (older
 * orders keep version 1), orders overdue, orders waiting on others (paused) and orders that waited
 * and came back, members with different loads, one of them at capacity.
 */

const available = await postgresAvailable();

const PASSWORD = "demo password for the seed test";
const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface LoggedEvent {
  readonly stream: string;
  readonly type: string;
  readonly actor: string;
  readonly occurredAt: number;
  readonly createdAt: string | null;
  readonly refundDate: string | null;
}

describe.skipIf(!available)("demo data seeded as a historical import", () => {
  let database: TestDatabase;
  let dataDir: string;
  let runtime: Runtime;
  let server: Server;
  let base: string;
  let token: string;
  let seededAt: number;
  let events: LoggedEvent[];

  const call = async (method: string, apiPath: string, body?: unknown) => {
    const response = await fetch(`${base}/api${apiPath}`, {
      method,
      headers: { authorization: token, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), "etd-seed-"));
    runtime = await openRuntime({ databaseUrl: database.url, dataDir, jwtSecret: "a-test-secret-that-is-long-enough-0123456789", sessionTtlSeconds: 3600, intakeToken: undefined, maxUploadBytes: 1024 * 1024 });
    seededAt = Date.now();
    // No `now`: the history ends at the server's clock, as on a first `npm start`.
    await seedDemo(runtime.deps, { password: PASSWORD, orderCount: 400 });
    await (await runtime.startProjectors()).ready;
    server = createApp(runtime.deps).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const login = await fetch(`${base}/api/admin/admin-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "admin@demo.local", password: PASSWORD }) });
    token = ((await login.json()) as { jwtToken: string }).jwtToken;
    const rows = await runtime.driver.query(
      `select stream_id, type, metadata->'actor'->>'name' as actor, metadata->>'occurredAt' as occurred_at,
              data->>'createdAt' as created_at, data->>'refundDate' as refund_date
         from es_events order by global_position`,
    );
    events = rows.map((row) => ({
      stream: String(row.stream_id),
      type: String(row.type),
      actor: String(row.actor),
      occurredAt: Date.parse(String(row.occurred_at)),
      createdAt: row.created_at as string | null,
      refundDate: row.refund_date as string | null,
    }));
  }, 180_000);

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await runtime?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("spreads the events over the last 60 days, none of them after the seeding began", () => {
    const days = new Set(events.map((e) => dayOf(e.occurredAt)));
    const lastSixty = Array.from({ length: DEMO_HISTORY_DAYS }, (_, i) => dayOf(seededAt - i * DAY));
    expect(lastSixty.filter((day) => days.has(day)).length).toBeGreaterThanOrEqual(50);
    expect(Math.max(...events.map((e) => e.occurredAt))).toBeLessThanOrEqual(Date.now());
    // Staff and gateways were there before the first order; nothing is older than the history.
    expect(Math.min(...events.map((e) => e.occurredAt))).toBeGreaterThan(seededAt - (DEMO_HISTORY_DAYS + 1) * DAY);
  });

  it("keeps each order's events in time order, none before the order was placed", () => {
    const byOrder = Map.groupBy(
      events.filter((e) => e.stream.startsWith("order-")),
      (e) => e.stream,
    );
    expect(byOrder.size).toBe(400);
    let worked = 0;
    for (const [stream, story] of byOrder) {
      const placed = story[0]!;
      expect(placed.type, stream).toBe("OrderPlaced");
      expect(placed.occurredAt, stream).toBe(Date.parse(placed.createdAt!));
      const times = story.map((e) => e.occurredAt);
      expect(times, stream).toEqual([...times].sort((a, b) => a - b));
      if (story.length > 1) {
        worked++;
        // Assigned some minutes after it was placed (or fell due), not in the same instant.
        expect(times[1]! - times[0]!, stream).toBeGreaterThanOrEqual(5 * 60_000);
      }
    }
    expect(worked).toBeGreaterThan(150);
  });

  it("gives refunds the day they were asked for, so the refund dates differ", async () => {
    const requested = events.filter((e) => e.type === "OrderRefundRequested");
    expect(requested.length).toBeGreaterThanOrEqual(2);
    for (const e of requested) expect(e.refundDate).toBe(dayOf(e.occurredAt));
    const list = await call("GET", "/admin/get-orders-list/refundOrder?limit=All");
    expect(list.body.status).toBe(1);
    const dates = new Set((list.body.data as { refund_date: string }[]).map((row) => row.refund_date));
    expect(dates.size).toBeGreaterThanOrEqual(2);
  });

  it("shows the country and processed-by reports on many different days of a date range", async () => {
    const daysWith = async (report: string) => {
      let days = 0;
      for (let i = 0; i < DEMO_HISTORY_DAYS; i++) {
        const day = dayOf(seededAt - i * DAY);
        const answer = await call("POST", report, { fromDate: day, toDate: day });
        expect(answer.body.status).toBe(1);
        if ((answer.body.data as { count: number }[]).some((row) => row.count > 0)) days++;
      }
      return days;
    };
    expect(await daysWith("/admin/get-country-order-list")).toBeGreaterThanOrEqual(40);
    expect(await daysWith("/admin/get-processed-by-count")).toBeGreaterThanOrEqual(20);
    // The whole range holds them all at once.
    const whole = await call("POST", "/admin/get-processed-by-count", { fromDate: dayOf(seededAt - DEMO_HISTORY_DAYS * DAY), toDate: dayOf(Date.now()) });
    expect((whole.body.data as { count: number }[]).reduce((sum, row) => sum + row.count, 0)).toBeGreaterThan(40);
  });

  it("stamps a command sent after seeding with the server's clock, and refunds it today", async () => {
    const fresh = events.find((e) => e.type === "OrderPlaced" && !events.some((other) => other.stream === e.stream && other.type !== "OrderPlaced"))!;
    const orderId = fresh.stream.slice("order-".length);
    const before = Date.now();
    const answer = await call("POST", "/admin/add-new-remark", { orderId, remark: "Customer cancelled.", statusRefund: "Y" });
    const after = Date.now();
    expect(answer.body).toMatchObject({ status: 1 });
    const stream = await runtime.deps.store.readStream(fresh.stream);
    const [remark, refund] = stream.slice(-2);
    expect(remark!.type).toBe("RemarkAdded");
    const occurredAt = Date.parse((remark!.metadata as { occurredAt: string }).occurredAt);
    expect(occurredAt).toBeGreaterThanOrEqual(before);
    expect(occurredAt).toBeLessThanOrEqual(after);
    expect(refund!.data).toMatchObject({ refundDate: dayOf(after) });
  });

  const stored = async (storedPath: string): Promise<Buffer> => {
    const content = await runtime.deps.storage.open(storedPath);
    expect(content, storedPath).toBeDefined();
    return Buffer.from(await buffer(content!));
  };

  /** Every processed order's page, as staff open it (ORDER-2, ORDER-3, ORDER-8). */
  const processedPages = async () => {
    const list = await call("GET", "/admin/get-processed-orders?limit=All");
    expect(list.body.status).toBe(1);
    const pages: Record<string, any>[] = [];
    for (const row of list.body.data.list as { order_id: string }[]) {
      const page = await call("GET", `/admin/get-orders-details/${row.order_id}`);
      expect(page.body.status).toBe(1);
      pages.push(page.body.data);
    }
    return pages;
  };

  it("issue 12, ORDER-2/3/8: a completed order shows its upload by its processor, its delivered mail and a download with IP and device", async () => {
    const pages = await processedPages();
    const page = pages.find((p) => p.process_status === "Completed" && p.mailHistory.some((m: any) => m.status === "delivered") && p.downloadHistory.length > 0);
    expect(page).toBeDefined();
    const [upload] = page!.uploadDoc;
    // Processed By is whoever worked the order and uploaded its document.
    expect(upload).toMatchObject({ uploaded_by: page!.assign_to, file1: expect.stringMatching(/^etravel-(qr-)?\d+\.(pdf|png)$/) });
    expect(upload.path).toBe(`docs/${page!.order_id}/${upload.file1}`);
    const mail = page!.mailHistory.find((m: any) => m.remainder_mail === 0);
    expect(mail).toMatchObject({ status: "delivered", transport: expect.stringMatching(/^(ses|sendgrid)$/), attempt: 1, email: page!.email, reason: null });
    expect(Date.parse(mail.sent_at) - Date.parse(mail.create_ts)).toBeLessThan(15_000);
    expect(Date.parse(mail.delivered_at)).toBeGreaterThan(Date.parse(mail.sent_at));
    const [download] = page!.downloadHistory;
    expect(download.ip).toMatch(/^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+$|^2001:db8:/);
    expect(download).toMatchObject({ file: upload.file1, device: expect.any(String), device_type: expect.stringMatching(/^(Mobile|Tablet|Desktop)$/), browser: expect.any(String), os: expect.any(String), timezone: expect.any(String) });
    expect(Date.parse(download.create_ts) - Date.parse(upload.uploaded_at)).toBeGreaterThanOrEqual(20 * 60_000);

    // The stored file is a real document, where an upload puts it.
    const pdf = pages.find((p) => p.uploadDoc[0]?.file1.endsWith(".pdf"))!;
    const pdfPath = path.join(dataDir, "pdf-check.pdf");
    await writeFile(pdfPath, await stored(pdf.uploadDoc[0].path));
    expect(execFileSync("pdftotext", [pdfPath, "-"], { encoding: "utf8" })).toContain(`Order ${pdf.order_id}`);
    const png = pages.find((p) => p.uploadDoc[0]?.file1.endsWith(".png"))!;
    expect((await stored(png.uploadDoc[0].path)).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  });

  it("issue 12, ORDER-2: the demo's mails include bounces (5.1.1, codes only), failures for good and reminders (Remainder Mail = Yes)", async () => {
    const mails = (await processedPages()).flatMap((p) => p.mailHistory as Record<string, any>[]);
    const bounced = mails.filter((m) => m.status === "bounced");
    expect(bounced.length).toBeGreaterThan(0);
    // As the webhooks keep a bounce: SES's type/sub-type or SendGrid's event, and the status code.
    for (const m of bounced) expect(m.reason).toBe(m.transport === "ses" ? "Permanent/General (5.1.1)" : "bounce (5.1.1)");
    const failed = mails.filter((m) => m.status === "failed");
    expect(failed.length).toBeGreaterThan(0);
    for (const m of failed) expect(m).toMatchObject({ retry_at: null, sent_at: null, reason: expect.any(String) });
    const reminders = mails.filter((m) => m.remainder_mail === 1);
    expect(reminders.length).toBeGreaterThan(0);
    for (const m of reminders) expect(m.status).toMatch(/^(delivered|bounced)$/);
    expect(new Set(mails.map((m) => String(m.uploadDoc.mail_service_provider)))).toEqual(new Set(["AWS", "Sendgrid"]));
    // Recorded as live: the attempts by the mail reactor (system "mail"), the reports by the
    // provider's webhook (named by its transport).
    const mailEvents = events.filter((e) => e.stream.startsWith("mail-"));
    const actorsOf = (types: readonly string[]) => new Set(mailEvents.filter((e) => types.includes(e.type)).map((e) => e.actor));
    expect(actorsOf(["MailQueued", "MailSent", "MailFailed"])).toEqual(new Set(["mail"]));
    expect(actorsOf(["MailDelivered", "MailBounced"])).toEqual(new Set(["ses", "sendgrid"]));
  });

  it("issue 12, ADMIN-7: Order Processed lists the uploads by their processors", async () => {
    const list = await call("GET", "/admin/get-processed-orders?limit=All");
    const rows = list.body.data.list as { processed_by: string }[];
    expect(rows.length).toBeGreaterThan(40);
    expect(new Set(rows.map((r) => r.processed_by)).size).toBeGreaterThanOrEqual(4);
  });

  it("issue 12: the mail reactor started after seeding sends none of the demo's mails and finds no reminder due", async () => {
    await runtime.startReactors();
    const head = await runtime.deps.store.headPosition();
    for (let waited = 0; ; waited += 100) {
      const [row] = await runtime.driver.query("select position from reactor_checkpoints where name = 'mail'");
      const at = row ? parsePosition(String(row.position)) : undefined;
      if (at && comparePositions(at, head) >= 0) break;
      if (waited > 60_000) throw new Error("the mail reactor did not catch up");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const outbox = await readdir(path.join(dataDir, "outbox")).catch(() => []);
    expect(outbox.filter((name) => name.endsWith(".eml"))).toEqual([]);
    const [due] = await runtime.driver.query("select count(*)::int as n from mail_schedule where due_at <= now()");
    expect(Number(due!.n)).toBe(0);
    // Nothing was added to any mail's stream.
    const [count] = await runtime.driver.query("select count(*)::int as n from es_events where stream_id like 'mail-%'");
    expect(Number(count!.n)).toBe(events.filter((e) => e.stream.startsWith("mail-")).length);
  });

  it("issue 27: the demo has two policy versions, overdue and paused orders, resumed clocks, and members with different loads", async () => {
    const policies = await call("GET", "/admin/service-levels");
    expect(policies.body.data.inForce).toMatchObject({ version: 2, allowedMinutes: { standard: 720, priority: 180, future: 720 }, setBy: { name: "Alicia Ramos" } });
    expect(policies.body.data.versions.map((v: { version: number }) => v.version)).toEqual(expect.arrayContaining([1, 2]));

    const day = await call("GET", "/admin/dashboard");
    expect(day.body.data.overdue).toBeGreaterThan(0);
    const paused = await call("GET", "/admin/get-orders-list/awaitingOrder?limit=All");
    expect(paused.body.data.length).toBeGreaterThan(0);

    // An order that waited on the customer and came back: its clock paused, then ran again.
    const [resumed] = await runtime.driver.query(
      `select back.stream_id from es_events away join es_events back
          on back.stream_id = away.stream_id and back.stream_position > away.stream_position
        where away.type = 'OrderStatusChanged' and away.data->>'to' in ('Awaiting', 'AwaitingGovt')
          and back.type = 'OrderStatusChanged' and back.data->>'to' = 'Pending' limit 1`,
    );
    expect(resumed).toBeDefined();
    const clock = await call("GET", `/admin/service-clock/${String(resumed!.stream_id).slice("order-".length)}`);
    const states = (clock.body.data.clock.segments as { state: string }[]).map((segment) => segment.state);
    expect(states.join(" ")).toMatch(/running paused running/);

    // Older orders keep the policy they were paid under.
    const oldest = events.find((e) => e.type === "OrderPlaced")!;
    const oldClock = await call("GET", `/admin/service-clock/${oldest.stream.slice("order-".length)}`);
    expect(oldClock.body.data.clock.policyVersion).toBe(1);

    const team = (await call("GET", "/admin/get-team-member-list")).body.data as { type: string; capacity: number | null; openOrders: number }[];
    expect(new Set(team.map((member) => member.openOrders)).size).toBeGreaterThanOrEqual(3);
    expect(team.some((member) => member.capacity !== null && member.openOrders >= member.capacity)).toBe(true);
  });
});
