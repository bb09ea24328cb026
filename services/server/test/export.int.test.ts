import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPostgresDriver, type SqlDriver } from "@etd/event-store";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { generateDemoOrders } from "@etd/demo";
import { EXPORT_RUNNING, ORDER_PROCESSED_COLUMNS, queueColumnsOf } from "@etd/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstAdminSettings, startApiProcess, type ApiProcess } from "./support/api-process.ts";

const available = await postgresAvailable();

const ADMIN = { email: "export.admin@example.com", password: "export-test-password" };
const TEAM = { name: "Tess Team", email: "export.team@example.com", password: "Team-password-1" };
const MANAGER = { name: "Mona Manager", email: "export.manager@example.com", password: "Manager-password-1" };
const INTAKE_TOKEN = "intake-token-for-the-export-test-0123456789";
const ORDERS = 100_000;
const FIRST_ID = 8_000_001;
/** The oldest order of the folder, so the last line of its export. */
const OLDEST_ID = String(FIRST_ID);
const EDITED_NAME = "Edited After The First Bytes";
/**
 * The API's old generation, in MB: the bound. At rest after start the API holds 40 to 55 MB; the
 * export's 100,000 rows held at once take about 50 MB more, so a version that buffers them dies
 * of "heap out of memory" under this cap (tried), while the streaming one holds a few batches at
 * a time. Without a cap V8 may leave a hundred MB of dead batches uncollected for a while, which
 * a sample from outside cannot tell from rows held on purpose.
 */
const OLD_SPACE_MB = 80;

/**
 * Names that would run as formulas in a spreadsheet, and text that breaks naive CSV: each on one
 * seeded order (by offset from FIRST_ID), with the cell the export must hold for it.
 */
const TRICKY: readonly { readonly offset: number; readonly first: string; readonly cell: string }[] = [
  { offset: 10, first: '=HYPERLINK("http://evil.example","Click")', cell: `'=HYPERLINK("http://evil.example","Click") Zebracorn` },
  { offset: 11, first: "+SUM(1,2)", cell: "'+SUM(1,2) Zebracorn" },
  { offset: 12, first: "-2+3", cell: "'-2+3 Zebracorn" },
  { offset: 13, first: "@cmd", cell: "'@cmd Zebracorn" },
  { offset: 14, first: 'Ann, "the" \r\nsecond line', cell: 'Ann, "the" \r\nsecond line Zebracorn' },
  // A spreadsheet with `;` as its list separator would start a cell at the `;`: the formula after it is neutralised too.
  { offset: 15, first: "Ann;=cmd|' /C calc'!A0", cell: "Ann;'=cmd|' /C calc'!A0 Zebracorn" },
  { offset: 16, first: 'Lee, "=1+2"', cell: `Lee, "'=1+2" Zebracorn` },
];

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and CR/LF; records end with CRLF. */
const parseCsv = (text: string): string[][] => {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else if (c === "\n" || c === "\r") throw new Error(`a bare line break outside quotes at ${i}`);
    else field += c;
  }
  if (field !== "" || record.length > 0) throw new Error("the last record does not end with CRLF");
  return records;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/*
 * Issue 16 D, QUEUE-3, QUEUE-6: CSV export of a queue of 100,000 orders, a search and a report,
 * against a real API process (its memory is measured from outside, as an operator would) on a
 * real PostgreSQL. The folder is seeded straight into the queue read model with one set-based
 * INSERT: the export reads nothing else, and 100,000 orders through the log would take minutes.
 */
describe.skipIf(!available)("issue 16 D: CSV export (QUEUE-3, QUEUE-6)", () => {
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let driver: SqlDriver | undefined;
  let api: ApiProcess | undefined;
  let adminToken = "";
  let adminCookie = "";
  let teamToken = "";

  const call = async (method: string, apiPath: string, body?: unknown, token?: string) => {
    const response = await fetch(`${api!.base}/api${apiPath}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: token } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  };

  const exportEvents = async () =>
    (await driver!.query(`select stream_id, data from es_events where type = 'DataExported' order by global_position`)).map((row) => ({
      stream: String(row.stream_id),
      data: row.data as Record<string, unknown>,
    }));

  /** The API's memory as /metrics reports it. */
  const memory = async () => {
    const text = await (await fetch(`${api!.base}/metrics`)).text();
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, "m").exec(text)?.[1] ?? NaN);
    return { rss: gauge("process_resident_memory_bytes"), heap: gauge("nodejs_heap_used_bytes") };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), "etd-export-"));
    driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 1 });
    api = await startApiProcess({
      ...firstAdminSettings({ databaseUrl: database.url, dataDir, admin: ADMIN, intakeToken: INTAKE_TOKEN, jwtSecret: "an-export-test-secret-that-is-long-enough-0123" }),
      // The old generation is capped (see the first test): an API that held the export would run out.
      NODE_OPTIONS: `--max-old-space-size=${OLD_SPACE_MB}`,
    });

    const signIn = await fetch(`${api.base}/api/admin/admin-login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    const signedIn = (await signIn.json()) as Record<string, any>;
    adminToken = `Bearer ${signedIn.jwtToken as string}`;
    adminCookie = signIn.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
    const added = await call("POST", "/admin/add-team-member", { name: TEAM.name, email: TEAM.email, password: TEAM.password, type: "Team" }, adminToken);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    teamToken = `Bearer ${(await call("POST", "/admin/admin-login", { email: TEAM.email, password: TEAM.password })).body.jwtToken as string}`;

    // The queue projection has created its tables by now (the API listens after migrating). One
    // statement: 100,000 due New orders, one second apart, the oldest first in id order, some
    // with tricky names, all surnamed so a search can find a few; then the folder's counts.
    await driver.query(
      `insert into queue_orders (order_id, process_status, processing_mode, landing_domain, processing_date, process_month, created_at,
         first_name, middle_name, last_name, email, phone_number, date_of_departure, date_of_travel, citizenship, refund_date,
         assignee_id, assignee_name, erased, search_text,
         clock_policy_version, clock_kind, clock_allowed_ms, clock_state, clock_used_ms, clock_since, clock_counts_from, due_at)
       select o.id, 'New', 'standard', 'primary', o.day, to_char(o.day, 'YYYY-MM'), o.at,
              o.first, null, o.last, 'traveller' || s || '@example.com', '+63 9171' || lpad(s::text, 6, '0'), '2026-03-04', '2026-02-01',
              'Philippines', null, null, null, false,
              lower(o.id || E'\\n' || o.first || ' ' || o.last || E'\\n' || 'traveller' || s || '@example.com'),
              0, 'standard', 86400000, 'running', 0, o.at, o.at, o.at + interval '1 day'
         from generate_series(0, $1::int - 1) s,
              lateral (select ($2::int + s)::text as id, (now() at time zone 'utc')::date - 1 as day,
                              timestamptz '2025-01-01T00:00:00Z' + s * interval '1 second' as at,
                              coalesce((select t.first from jsonb_to_recordset($3::jsonb) as t("offset" int, first text) where t."offset" = s), 'Traveller') as first,
                              case when s between 10 and 16 then 'Zebracorn' else 'Number' || s end as last) o`,
      [ORDERS, FIRST_ID, JSON.stringify(TRICKY.map(({ offset, first }) => ({ offset, first })))],
    );
    await driver.query(`insert into queue_status_counts (bucket, n) values ('New', $1)`, [ORDERS]);
    await driver.query(`insert into queue_intake_days (bucket, day, n) values ('New', ((now() at time zone 'utc')::date - 1)::text, $1)`, [ORDERS]);

    // Two real orders for the country report, due next month: in Future Orders, not in New.
    const nextMonth = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    for (const [i, body] of generateDemoOrders({ seed: 16, count: 2, now: new Date() }).entries()) {
      const placed = await fetch(`${api.base}/api/intake/orders`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${INTAKE_TOKEN}` },
        body: JSON.stringify({ ...body, order_id: String(7_000_001 + i), processing_date: nextMonth }),
      });
      expect(placed.status, await placed.clone().text()).toBe(200);
    }
  }, 180_000);

  afterAll(async () => {
    await api?.stop();
    await driver?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("issue 16 D QUEUE-3 QUEUE-6: 100,000 New orders stream to a slow reader in bounded memory, formulas neutralised, audited", async () => {
    const before = await memory();
    // The premise of the bound: the API at rest leaves room under the cap for a few batches.
    expect(before.heap, "the API at rest is near the test's heap cap: raise OLD_SPACE_MB").toBeLessThan((OLD_SPACE_MB - 16) * 1e6);
    const started = performance.now();
    // No Authorization header: the session cookie, as a plain download link sends it.
    const response = await fetch(`${api!.base}/api/admin/export-orders?folderName=newOrder`, { headers: { cookie: adminCookie } }).catch((error: unknown) => {
      throw new Error(`the export failed (an API out of memory ends like this): ${String(error)}\n${api!.output().slice(-2_000)}`);
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const today = new Date().toISOString().slice(0, 10);
    // RFC 6266: a name of token characters may go without quotes (Express leaves them off).
    expect(response.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="?newOrder-${today}\\.csv"?$`));
    // Streamed: chunked, so no length is known up front.
    expect(response.headers.get("content-length")).toBeNull();
    expect(response.headers.get("transfer-encoding")).toBe("chunked");

    const reader = response.body!.getReader();
    const chunks: Uint8Array[] = [];
    let firstByteMs = 0;
    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const now = await memory();
        peak = { rss: Math.max(peak.rss, now.rss), heap: Math.max(peak.heap, now.heap) };
        await sleep(200);
      }
    })();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (chunks.length === 0) {
        firstByteMs = performance.now() - started;
        // The oldest order is the last row the export reads. Renamed now, after the first bytes
        // arrived: only an export that had not read it yet can show the new name.
        await driver!.query(`update queue_orders set first_name = $1 where order_id = $2`, [EDITED_NAME, OLDEST_ID]);
      }
      chunks.push(value);
      // A slow reader: about 4 MB/s, so the server must wait for it (backpressure).
      await sleep(value.length / 4_000);
    }
    const totalMs = performance.now() - started;
    sampling = false;
    await sampler;
    const received = chunks.reduce((sum, chunk) => sum + chunk.length, 0);

    // Bounded memory: the export finished under the cap (see OLD_SPACE_MB).
    const growth = { rss: peak.rss - before.rss, heap: peak.heap - before.heap };
    console.log(
      `export of ${ORDERS} rows, ${(received / 1e6).toFixed(1)} MB: first byte ${firstByteMs.toFixed(0)} ms, all ${totalMs.toFixed(0)} ms; ` +
        `peak growth rss ${(growth.rss / 1e6).toFixed(1)} MB, heap ${(growth.heap / 1e6).toFixed(1)} MB (before: rss ${(before.rss / 1e6).toFixed(1)} MB, heap ${(before.heap / 1e6).toFixed(1)} MB)`,
    );
    // And the heap in use, dead batches included, stays well within the cap while it runs.
    expect(growth.heap).toBeLessThan(64e6);

    const bytes = Buffer.concat(chunks);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString("utf8");
    const records = parseCsv(text);
    expect(records).toHaveLength(ORDERS + 1);
    // As lines: one more for the CRLF inside a quoted name, and "" after the final CRLF.
    expect(text.split("\r\n")).toHaveLength(ORDERS + 1 + 1 + 1);

    // QUEUE-3: the New screen's columns without Action, from the list the web's table uses.
    expect(records[0]).toEqual(["Order Id", "Name", "Email", "Telephone", "Arrival Date", "Date & Time", "Departure Date", "Due", "Status"]);
    expect(records[0]).toEqual(queueColumnsOf("newOrder").map((column) => column.header));
    // Newest first; QUEUE-6 values as on screen: DD/MM/YYYY days and UTC date and time; the
    // telephone neutralised too, since it starts with "+".
    const newest = FIRST_ID + ORDERS - 1;
    const newestAt = new Date(Date.parse("2025-01-01T00:00:00Z") + (ORDERS - 1) * 1000).toISOString();
    // Issue 27: the Due cell keeps the due moment (the export is read later than the screen).
    const newestDue = new Date(Date.parse(newestAt) + 86_400_000).toISOString();
    expect(records[1]).toEqual([
      String(newest),
      `Traveller Number${ORDERS - 1}`,
      `traveller${ORDERS - 1}@example.com`,
      `'+63 9171${String(ORDERS - 1).padStart(6, "0")}`,
      "01/02/2026",
      `${newestAt.slice(8, 10)}/${newestAt.slice(5, 7)}/${newestAt.slice(0, 4)} ${newestAt.slice(11, 19)}`,
      "04/03/2026",
      `${newestDue.slice(8, 10)}/${newestDue.slice(5, 7)}/${newestDue.slice(0, 4)} ${newestDue.slice(11, 19)}`,
      "New",
    ]);
    // Every order once, in order.
    expect(records.slice(1).map((record) => Number(record[0]))).toEqual(Array.from({ length: ORDERS }, (_, i) => newest - i));
    // The last row was read after the first bytes had gone out.
    expect(records[ORDERS]![1]).toBe(`${EDITED_NAME} Number0`);
    for (const { offset, cell } of TRICKY) expect(records[ORDERS - offset]![1]).toBe(cell);

    // Audited: on the Admin's own stream, with the folder and the rows that matched.
    const events = await exportEvents();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ what: "queue", folderName: "newOrder", rows: ORDERS });
    expect(events[0]!.stream).toMatch(/^staff-/);
    // A loaded CI machine (2 shared cores) can take several times the usual ~5 s.
  }, 180_000);

  it("issue 16 D: the session cookie counts only from this site; a member runs two exports at once, a third is refused and recorded nowhere", async () => {
    const before = (await exportEvents()).length;
    const url = `${api!.base}/api/admin/export-orders?folderName=newOrder`;
    // A link on a sibling site (the customer-facing one shares SameSite's "site"): the browser says so.
    const crossSite = await fetch(url, { headers: { cookie: adminCookie, "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(401);
    expect((await fetch(url, { headers: { cookie: adminCookie, "sec-fetch-site": "same-site" } })).status).toBe(401);
    expect(await exportEvents()).toHaveLength(before);

    // Two downloads held open (nothing read yet), then a third.
    const open = [
      await fetch(url, { headers: { cookie: adminCookie, "sec-fetch-site": "same-origin" } }),
      await fetch(url, { headers: { cookie: adminCookie, "sec-fetch-site": "none" } }),
    ];
    expect(open.map((response) => response.status)).toEqual([200, 200]);
    const third = await call("GET", "/admin/export-orders?folderName=newOrder", undefined, adminToken);
    expect(third).toMatchObject({ status: 429, body: { status: 0, message: EXPORT_RUNNING } });
    expect(await exportEvents()).toHaveLength(before + 2);
    // One download given up: its place is free again once the server has seen it go.
    await open[0]!.body!.cancel();
    for (const deadline = Date.now() + 30_000; ; ) {
      const next = await fetch(url, { headers: { authorization: adminToken } });
      if (next.status === 200) {
        await next.body!.cancel();
        break;
      }
      expect(next.status).toBe(429);
      if (Date.now() > deadline) throw new Error("a cancelled export never freed its place");
      await next.body?.cancel();
      await sleep(100);
    }
    await open[1]!.body!.cancel();
  });

  it("issue 16 D: a member who signs out during a download gets no more rows; the download breaks instead of ending short", async () => {
    // A session of its own, so that signing it out leaves the other tests' session alone.
    const token = `Bearer ${(await call("POST", "/admin/admin-login", ADMIN)).body.jwtToken as string}`;
    const response = await fetch(`${api!.base}/api/admin/export-orders?folderName=newOrder`, { headers: { authorization: token } });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = 0;
    let outcome: "finished" | "broken" = "finished";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (received === 0) expect(await call("POST", "/admin/logout", {}, token)).toMatchObject({ status: 200 });
        received += value.length;
        // Slowly, so that the server has most batches still to read when the session ends.
        await sleep(value.length / 2_000);
      }
    } catch {
      outcome = "broken";
    }
    // The whole file is about 12 MB; what had left before the next batch's check is a few batches.
    expect({ outcome, mostlyUnsent: received < 3e6 }).toEqual({ outcome: "broken", mostlyUnsent: true });
    expect(api!.output()).toMatch(/Export of newOrder by staff member \S+ cut: the session ended/);
  });

  it("issue 16 D: a Team member gets 403 and nothing is recorded", async () => {
    const before = (await exportEvents()).length;
    const refused = await call("GET", "/admin/export-orders?folderName=newOrder", undefined, teamToken);
    expect(refused).toMatchObject({ status: 403, body: { status: 0, message: "You do not have permission to do this." } });
    const report = await call("GET", "/admin/export-report?report=country-orders", undefined, teamToken);
    expect(report.status).toBe(403);
    // Without any session, a download link is refused too.
    expect((await call("GET", "/admin/export-orders?folderName=newOrder")).status).toBe(401);
    expect(await exportEvents()).toHaveLength(before);
  });

  it("issue 16 D QUEUE-2: a search export holds only the matches, and records that a search was exported, without its text", async () => {
    const response = await fetch(`${api!.base}/api/admin/export-orders?folderName=recent-order&searchVal=ZEBRACORN`, { headers: { authorization: adminToken } });
    expect(response.status).toBe(200);
    const records = parseCsv((await response.text()).replace(/^\uFEFF/, ""));
    expect(records.map((record) => record[0])).toEqual(["Order Id", ...TRICKY.map(({ offset }) => String(FIRST_ID + offset)).reverse()]);
    expect(records.slice(1).map((record) => record[1])).toEqual(TRICKY.map(({ cell }) => cell).reverse());
    const events = await exportEvents();
    expect(events.at(-1)!.data).toMatchObject({ what: "search", folderName: "newOrder", rows: TRICKY.length });
    // The search's text is not kept: it may be a traveller's name, and the staff stream cannot forget it.
    expect(JSON.stringify(events.at(-1)!.data)).not.toContain("ZEBRACORN");
  });

  it("issue 16 D ADMIN-4: a report export has the report screen's columns and rows", async () => {
    const response = await fetch(`${api!.base}/api/admin/export-report?report=country-orders&fromDate=&toDate=`, { headers: { authorization: adminToken } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="?country-orders-\d{4}-\d{2}-\d{2}\.csv"?$/);
    const records = parseCsv((await response.text()).replace(/^\uFEFF/, ""));
    expect(records[0]).toEqual(["Country", "Order", "Standard Orders", "Priority Orders", "Future Orders"]);
    // The two orders placed for it, both due next month (Future Orders), whatever their countries.
    const rows = records.slice(1);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(2);
    expect(rows.reduce((sum, row) => sum + Number(row[4]), 0)).toBe(2);
    expect((await exportEvents()).at(-1)!.data).toMatchObject({ what: "report", report: "country-orders", rows: rows.length });
  });
  /*
   * ADMIN-7, issue 16 D: the Order Processed list as CSV. Its orders are seeded straight into the
   * reports read model (one statement), which is all the export reads: 2,500 processed orders,
   * three batches of 1,000. Uploads come in pairs at one instant whose microseconds are not a
   * whole millisecond, and a pair straddles each batch boundary: a cursor that lost the
   * microseconds, or ignored the order id, would skip or repeat rows there. Order ids are a
   * shuffle of the upload order, so the tie-break by id is visible too.
   */
  describe("ADMIN-7: Order Processed export (issue 16 D)", () => {
    const PROCESSED = 2_500;
    const FIRST_PROCESSED_ID = 9_000_001;
    /** 2025-03-01T00:00:00Z and the step between upload instants, in microseconds. */
    const BASE_US = BigInt(Date.parse("2025-03-01T00:00:00Z")) * 1000n;
    const STEP_US = 2_477_123_457n;
    const STAFF_NAMES = [
      ["staff-0", '=HYPERLINK("http://evil.example","Click")'],
      ["staff-1", "+Plus One"],
      ["staff-2", "Carla Reyes"],
    ] as const;
    /** What the screen (and so the file) shows for each staff member; staff-3 is no longer on the team. */
    const SHOWN_NAME = [`'=HYPERLINK("http://evil.example","Click")`, "'+Plus One", "Carla Reyes", "Gone Member"];
    const STATUSES = ["Completed", "AwaitingGovt", "Pending", "Deleted"] as const;
    const STATUS_SHOWN = ["Completed", "Awaiting Govt", "Pending", "Deleted"];

    /** The seeded order number `s` as the file must show it, with its sort key. */
    const expected = Array.from({ length: PROCESSED }, (_, s) => {
      const instant = Math.floor((s + 1) / 2);
      const at = new Date(Number((BASE_US + BigInt(instant) * STEP_US) / 1000n)).toISOString();
      const dayText = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
      const processingDate = new Date(Date.parse("2025-04-01T00:00:00Z") + (s % 30) * 86_400_000).toISOString();
      return {
        instant,
        day: at.slice(0, 10),
        id: FIRST_PROCESSED_ID + ((s * 7919) % PROCESSED),
        cells: [
          String(FIRST_PROCESSED_ID + ((s * 7919) % PROCESSED)),
          SHOWN_NAME[s % 4]!,
          `${dayText(at)} ${at.slice(11, 19)}`,
          STATUS_SHOWN[s % 4]!,
          s % 2 === 0 ? "Standard Processing" : "Priority Processing",
          dayText(processingDate),
          ["Philippines", "IN", "Not stated"][s % 3]!,
        ],
      };
    });
    /** The list's order: the latest upload first, then the higher order id. */
    const inListOrder = (rows: typeof expected) => [...rows].sort((a, b) => b.instant - a.instant || b.id - a.id).map((row) => row.cells);

    const exportProcessed = async (query: string, token = adminToken) => {
      const response = await fetch(`${api!.base}/api/admin/export-report?report=order-processed${query}`, { headers: { authorization: token } });
      return { response, records: response.status === 200 ? parseCsv((await response.text()).replace(/^\uFEFF/, "")) : [] };
    };

    beforeAll(async () => {
      await driver!.query(
        `insert into report_orders (order_id, created_at, created_day, citizenship_id, citizenship, country_key, processing_mode, processing_date,
           status, processed_by_id, processed_by, processed_at, processed_day)
         select o.id, o.at - interval '1 day', ((o.at - interval '1 day') at time zone 'UTC')::date,
                (array['PH', 'IN', null])[s % 3 + 1], (array['Philippines', null, null])[s % 3 + 1], (array['PH', 'IN', '?'])[s % 3 + 1],
                (array['standard', 'priority'])[s % 2 + 1], date '2025-04-01' + s % 30,
                ($4::text[])[s % 4 + 1], 'staff-' || s % 4, case when s % 4 = 3 then 'Gone Member' else 'Old Name' end,
                o.at, (o.at at time zone 'UTC')::date
           from generate_series(0, $1::int - 1) s,
                lateral (select ($2::int + (s * 7919) % $1::int)::text as id,
                                timestamptz '2025-03-01T00:00:00Z' + ((s + 1) / 2) * ($3::int8 * interval '1 microsecond') as at) o`,
        [PROCESSED, FIRST_PROCESSED_ID, String(STEP_US), STATUSES],
      );
      await driver!.query(`insert into report_staff_names (staff_id, name) select * from unnest($1::text[], $2::text[])`, [
        STAFF_NAMES.map(([id]) => id),
        STAFF_NAMES.map(([, name]) => name),
      ]);
    });

    it("ADMIN-7 issue 16 D: an Admin's export holds every processed order once, in the list's order across batches, formatted as on screen, formulas neutralised, audited", async () => {
      const before = (await exportEvents()).length;
      const { response, records } = await exportProcessed("&fromDate=&toDate=");
      expect(response.status).toBe(200);
      const today = new Date().toISOString().slice(0, 10);
      expect(response.headers.get("content-disposition")).toMatch(new RegExp(`^attachment; filename="?order-processed-${today}\\.csv"?$`));
      // The screen's columns without Action, from the list the web's table renders.
      expect(records[0]).toEqual(["Order Id", "Processed By", "Processed At", "Status", "Processing Mode", "Processing Date", "Citizenship"]);
      expect(records[0]).toEqual(ORDER_PROCESSED_COLUMNS.map((column) => column.header));
      // Every row once and in order, ties at the batch boundaries (rows 1,000/1,001 and 2,000/2,001) included.
      const rows = records.slice(1);
      expect(rows).toHaveLength(PROCESSED);
      expect(new Set(rows.map((row) => row[0])).size).toBe(PROCESSED);
      expect(rows).toEqual(inListOrder(expected));
      expect(rows[999]![2]).toBe(rows[1000]![2]);
      // A formula in a staff name reaches the file as text.
      expect(rows.filter((row) => row[1] === `'=HYPERLINK("http://evil.example","Click")`)).toHaveLength(PROCESSED / 4);
      expect(rows.some((row) => /^[=+]/.test(row[1]!))).toBe(false);

      const events = await exportEvents();
      expect(events).toHaveLength(before + 1);
      expect(events.at(-1)!.data).toMatchObject({ what: "report", report: "order-processed", rows: PROCESSED });
      expect(events.at(-1)!.stream).toMatch(/^staff-/);
    });

    it("ADMIN-7 issue 16 D: a day range exports only the orders whose last upload fell within it, and records the range", async () => {
      const inRange = expected.filter((row) => row.day >= "2025-03-10" && row.day <= "2025-03-19");
      // The premise: the range cuts the seeded weeks on both sides.
      expect(inRange.length).toBeGreaterThan(100);
      expect(inRange.length).toBeLessThan(PROCESSED / 2);
      const { response, records } = await exportProcessed("&fromDate=2025-03-10&toDate=2025-03-19");
      expect(response.status).toBe(200);
      expect(records.slice(1)).toEqual(inListOrder(inRange));
      expect((await exportEvents()).at(-1)!.data).toMatchObject({
        what: "report",
        report: "order-processed",
        fromDate: "2025-03-10",
        toDate: "2025-03-19",
        rows: inRange.length,
      });
    });

    it("ADMIN-7 issue 16 D: a Manager, who may export the other reports, gets 403 for Order Processed and nothing is recorded", async () => {
      const added = await call("POST", "/admin/add-team-member", { ...MANAGER, type: "Manager" }, adminToken);
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      const managerToken = `Bearer ${(await call("POST", "/admin/admin-login", { email: MANAGER.email, password: MANAGER.password })).body.jwtToken as string}`;
      const before = (await exportEvents()).length;
      const refused = await call("GET", "/admin/export-report?report=order-processed", undefined, managerToken);
      expect(refused).toMatchObject({ status: 403, body: { status: 0, message: "You do not have permission to do this." } });
      expect(await exportEvents()).toHaveLength(before);
      // The list itself is refused to a Manager the same way.
      expect((await call("GET", "/admin/get-processed-orders", undefined, managerToken)).status).toBe(403);
    });
  });
});
