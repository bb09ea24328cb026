import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPostgresDriver, type SqlDriver } from "@etd/event-store";
import { createTestDatabase } from "@etd/infra/test-database";
import { DEMO_STAFF } from "@etd/api/internal/seed/seed.ts";
import { firstAdminSettings, startApiProcess, type ApiProcess } from "../test/support/api-process.ts";

/*
 * P9: the order page's API calls at 1,000,000 orders, p95, against a primary-key lookup of one
 * order row p95 in the same run, on the same database, over the same random order ids. The last
 * line is `P9 order_vs_pk=<ratio> order_p95_ms=<ms>`; goal ≤ 3. See ADR 0015.
 *
 * Seeding: the real API, started as its own process on a throwaway database in demo mode, places
 * its 2000 demo orders and lives their lives through the real commands
 * (assigned, remarked on with flags, moved, uploaded and mailed, refunded, charged back…), and
 * builds its read models from that log as production does. Those orders are the templates: the
 * order detail read model's live build (order_details, mail_history, download_history,
 * comment_history and the orders' audit_timeline lines) is then filled up to P9_ORDERS orders in
 * SQL, each new order a copy of one template with its own order id (in the document too), row
 * keys and stream name. Rows are copied by column name, so the copy follows the projection's
 * tables as they are.
 *
 * Measuring: an Admin session opens the order page for random order ids across the whole range,
 * P9_CONCURRENCY pages at a time: GET /admin/get-orders-details/{id}, POST /admin/order-presence
 * and GET /audit/orders/{id}/timeline issued together, as the page does. `order_p95_ms` is the
 * p95 of those calls, each timed on its own.
 *
 * The baseline is a primary-key lookup served the same way: GET /admin/team-member-info/{id}, one
 * staff row by its key, through the same Express stack, guard and session checks, issued in the
 * page's shape (as many at once per worker as the page makes calls, so the same number of
 * requests is in flight). The ratio thus says what the order page's reads cost beyond the cheapest read the API
 * serves, which is what the read model's shape decides. For reference the bench also prints
 * `select * from order_details where order_id = $1` through the pg driver from this process (no
 * HTTP, no session), and the whole page (three calls at once) from first request to last answer.
 * All are warmed up, then sampled in alternating blocks so that they share the machine's weather.
 */

const ORDERS = Number(process.env.P9_ORDERS ?? 1_000_000);
const SAMPLES = Number(process.env.P9_SAMPLES ?? 3000);
const WARMUP = Number(process.env.P9_WARMUP ?? 300);
const CONCURRENCY = Number(process.env.P9_CONCURRENCY ?? 4);
/** P9_KEEP=1 leaves the database (and prints its URL) for EXPLAIN ANALYZE afterwards. */
const KEEP = process.env.P9_KEEP === "1";
const BLOCK = 250;
/** Copies are numbered from here; the demo's own orders start at 100001. */
const FIRST_COPY_ID = 10_000_001;

const PASSWORD = "benchmark password 9";
const ADMIN = { email: DEMO_STAFF.find((member) => member.role === "Admin")!.email, password: PASSWORD };
const INTAKE_TOKEN = "benchmark-intake-token-0000000000";

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Nearest rank: the value at or below which `q` of the samples lie. */
const quantile = (sorted: readonly number[], q: number) => sorted[Math.max(Math.ceil(sorted.length * q) - 1, 0)]!;

/** The live build's physical table of each order detail read model. */
const liveTables = async (driver: SqlDriver) => {
  const [live] = await driver.query("select version, build from projection_builds where name = 'order_details' and status = 'live'");
  if (!live) throw new Error("the order_details read model has no live build");
  const table = (base: string) => `${base}_v${String(live.version)}_b${String(live.build)}`;
  return { orders: table("order_details"), mails: table("mail_history"), downloads: table("download_history"), comments: table("comment_history"), audit: table("audit_timeline") };
};

const columnsOf = async (driver: SqlDriver, table: string): Promise<string[]> =>
  (await driver.query("select column_name from information_schema.columns where table_name = $1 order by ordinal_position", [table])).map((row) => row.column_name as string);

/**
 * Copies the template orders' rows of `table` once per copy in bench_copies: `changed` gives the
 * columns that must differ (keys, order id), every other column is copied as it is.
 */
const copyRows = async (driver: SqlDriver, table: string, changed: Record<string, string>, more = "") => {
  const started = performance.now();
  const columns = await columnsOf(driver, table);
  const unknown = Object.keys(changed).filter((column) => !columns.includes(column));
  if (unknown.length > 0) throw new Error(`${table} has no column ${unknown.join(", ")}: the projection changed, update the benchmark's copy`);
  const values = columns.map((column) => changed[column] ?? `h.${column}`);
  // Copies in order id order, so each btree is appended to rather than split all over.
  const rows = await driver.query(
    `with inserted as (
       insert into ${table} (${columns.join(", ")})
       select ${values.join(", ")} from bench_copies c join ${table} h on h.order_id = c.template_id ${more}
       returning 1)
     select count(*)::bigint as n from inserted`,
  );
  console.log(`  ${table}: ${Number(rows[0]!.n).toLocaleString("en-US")} rows copied in ${seconds(started)}`);
};

/** Fills the order detail read model up to ORDERS orders; answers every order id. */
const fillUp = async (driver: SqlDriver): Promise<string[]> => {
  const t = await liveTables(driver);
  const templates = (await driver.query(`select order_id from ${t.orders} order by order_id`)).map((row) => row.order_id as string);
  const copies = ORDERS - templates.length;
  if (copies < 0) throw new Error(`P9_ORDERS (${ORDERS}) is below the ${templates.length} template orders; raise it`);
  const started = performance.now();
  await driver.query(`create unlogged table bench_templates as select order_id, (row_number() over (order by order_id) - 1)::int as idx from ${t.orders}`);
  await driver.query(
    `create unlogged table bench_copies as
       select j, (${FIRST_COPY_ID} + j)::text as order_id, t.order_id as template_id
         from generate_series(0, ${copies - 1}) j join bench_templates t on t.idx = j % ${templates.length}
        order by j`,
  );
  await driver.query("analyze bench_copies");
  await copyRows(driver, t.orders, { order_id: "c.order_id", document: "h.document || jsonb_build_object('order_id', c.order_id)" });
  await copyRows(driver, t.mails, { mail_id: "h.mail_id || '-' || c.order_id", order_id: "c.order_id" });
  await copyRows(driver, t.downloads, { download_id: "h.download_id || '-' || c.order_id", order_id: "c.order_id" });
  await copyRows(driver, t.comments, { remark_id: "h.remark_id || '-' || c.order_id", order_id: "c.order_id" });
  // The demo's orders are young (2.6 audit lines each): a copy repeats its template's lines one to
  // four times, as an order worked on for longer would have them (about 6.5 each).
  await copyRows(
    driver,
    t.audit,
    { stream: "'order-' || c.order_id", stream_position: "h.stream_position + k * 1000", order_id: "c.order_id", event_id: "h.event_id || '-' || c.order_id || '-' || k" },
    "cross join generate_series(0, 3) k where h.stream = 'order-' || h.order_id and k <= c.j % 4",
  );
  // The demo has no downloads: one copy in ten has been downloaded one to three times.
  const downloads = performance.now();
  await driver.query(
    `insert into ${t.downloads} (download_id, order_id, stream_position, create_ts, ip, location, timezone, browser, os, device, device_type, file)
     select 'bench-' || c.order_id || '-' || k, c.order_id, 1000 + k, now() - (c.j % 90) * interval '1 day' + k * interval '1 hour',
            '203.0.113.' || (c.j % 250), 'Manila, PH', 'Asia/Manila', 'Chrome 126', 'Android 14', 'Samsung SM-S911B', 'mobile', 'etravel-' || c.order_id || '.pdf'
       from bench_copies c cross join generate_series(1, 3) k
      where c.j % 10 = 0 and k <= 1 + c.j % 3
      order by c.j, k`,
  );
  console.log(`  ${t.downloads}: downloads added in ${seconds(downloads)}`);
  await driver.query("drop table bench_copies");
  await driver.query("drop table bench_templates");
  const vacuumed = performance.now();
  for (const table of Object.values(t)) await driver.query(`vacuum (analyze) ${table}`);
  console.log(`  vacuum analyze in ${seconds(vacuumed)}; read model filled to ${ORDERS.toLocaleString("en-US")} orders in ${seconds(started)}`);
  return [...templates, ...Array.from({ length: copies }, (_, j) => String(FIRST_COPY_ID + j))];
};

/** How much history the orders carry: the templates', which every copy repeats. */
const describeHistories = async (driver: SqlDriver) => {
  const t = await liveTables(driver);
  const [row] = await driver.query(
    `select count(*)::int as orders,
            (select count(*) from ${t.audit} where stream like 'order-%')::float / count(*) as audit_per_order,
            (select min(n) from (select count(*) as n from ${t.audit} where stream like 'order-%' group by stream) s)::int as audit_min,
            (select max(n) from (select count(*) as n from ${t.audit} where stream like 'order-%' group by stream) s)::int as audit_max,
            count(*) filter (where exists (select 1 from ${t.comments} h where h.order_id = o.order_id))::float / count(*) as with_comments,
            count(*) filter (where exists (select 1 from ${t.mails} h where h.order_id = o.order_id))::float / count(*) as with_mails,
            count(*) filter (where exists (select 1 from ${t.downloads} h where h.order_id = o.order_id))::float / count(*) as with_downloads,
            (select count(*) from ${t.comments})::float / count(*) as comments_per_order,
            (select count(*) from ${t.mails})::float / count(*) as mails_per_order,
            (select count(*) from ${t.downloads})::float / count(*) as downloads_per_order,
            count(*) filter (where erased)::float / count(*) as erased
       from ${t.orders} o`,
  );
  const pct = (value: unknown) => `${(Number(value) * 100).toFixed(0)} %`;
  const avg = (value: unknown) => Number(value).toFixed(1);
  console.log(
    `  templates: ${String(row!.orders)} orders; audit lines per order ${avg(row!.audit_per_order)} (${String(row!.audit_min)}-${String(row!.audit_max)}); ` +
      `with comments ${pct(row!.with_comments)} (${avg(row!.comments_per_order)}/order), mails ${pct(row!.with_mails)} (${avg(row!.mails_per_order)}/order), ` +
      `downloads ${pct(row!.with_downloads)} (${avg(row!.downloads_per_order)}/order); erased ${pct(row!.erased)}`,
  );
};

/** CPU time (user + system) a process has used so far, in ms; Linux only, undefined elsewhere. */
const cpuMs = async (pid: number): Promise<number | undefined> => {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses; clock ticks of 10 ms.
    const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
};

/** Runs `work` over `items` with CONCURRENCY workers, each taking the next item. */
const inParallel = async <T>(items: readonly T[], work: (item: T, worker: number) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      while (next < items.length) await work(items[next++]!, worker);
    }),
  );
};

const main = async () => {
  console.log(`P9: ${ORDERS.toLocaleString("en-US")} orders, ${SAMPLES} samples after ${WARMUP} warm-up, ${CONCURRENCY} at a time`);
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), "etd-p9-"));
  let api: ApiProcess | undefined;
  const driver = await openPostgresDriver({ connectionString: database.url, maxConnections: CONCURRENCY });
  try {
    const seeding = performance.now();
    // The real API: on an empty database in demo mode it adds the demo staff and orders through its
    // commands, and builds every read model from the log before it listens.
    const settings = firstAdminSettings({ databaseUrl: database.url, dataDir, admin: ADMIN, intakeToken: INTAKE_TOKEN, jwtSecret: "benchmark-secret-that-is-long-enough-0009" });
    delete settings.FIRST_ADMIN_EMAIL;
    delete settings.FIRST_ADMIN_PASSWORD;
    api = await startApiProcess({ ...settings, DEMO: "1", DEMO_PASSWORD: PASSWORD }, { startTimeoutMs: 600_000 });
    console.log(`  API listening at ${api.base} (pid ${api.pid}) with its demo orders after ${seconds(seeding)}`);
    await describeHistories(driver);
    const orderIds = await fillUp(driver);
    console.log(`seeded in ${seconds(seeding)}`);

    const base = `${api.base}/api`;
    const signIn = await fetch(`${base}/admin/admin-login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
    const token = ((await signIn.json()) as { jwtToken?: string }).jwtToken;
    if (!token) throw new Error(`the admin could not sign in (${signIn.status})`);
    const headers = { authorization: token, "content-type": "application/json" };
    const adminId = (((await (await fetch(`${base}/user_info`, { headers })).json()) as { data?: { id?: string } }).data?.id) ?? "";

    const calls = {
      details: async (orderId: string) => {
        const response = await fetch(`${base}/admin/get-orders-details/${orderId}`, { headers });
        const body = (await response.json()) as { data?: { order_id?: string } };
        if (response.status !== 200 || body.data?.order_id !== orderId) throw new Error(`details of ${orderId}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
      },
      presence: async (orderId: string, viewId: string) => {
        const response = await fetch(`${base}/admin/order-presence`, { method: "POST", headers, body: JSON.stringify({ orderId, viewId }) });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`presence on ${orderId}: ${response.status}`);
      },
      timeline: async (orderId: string) => {
        const response = await fetch(`${base}/audit/orders/${orderId}/timeline`, { headers });
        const body = (await response.json()) as { data?: { lines?: unknown[] } };
        if (response.status !== 200 || !body.data?.lines?.length) throw new Error(`timeline of ${orderId}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
      },
    };
    type CallName = keyof typeof calls;
    // Presence is being built beside this benchmark: measured when the API has it.
    const probe = await fetch(`${base}/admin/order-presence`, { method: "POST", headers, body: JSON.stringify({ orderId: orderIds[0], viewId: "bench-p9-probe" }) });
    await probe.arrayBuffer();
    const pageCalls: CallName[] = probe.status === 404 ? ["details", "timeline"] : ["details", "presence", "timeline"];
    if (probe.status === 404) console.log("  NOTE: POST /admin/order-presence answers 404 on this API: the page is measured without it");

    const timings = { apiPk: [] as number[], pk: [] as number[], page: [] as number[], details: [] as number[], presence: [] as number[], timeline: [] as number[], floor: [] as number[] };
    // The floor of any staff call: the guard's session checks and the smallest indexed read (an
    // empty stream's timeline), for telling the HTTP and session cost from the order's reads.
    const floor = async (record: boolean) => {
      const sent = performance.now();
      const response = await fetch(`${base}/audit/gateways/timeline`, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`gateways timeline: ${response.status}`);
      if (record) timings.floor.push(performance.now() - sent);
    };
    const apiLookup = async (record: boolean) => {
      const sent = performance.now();
      const response = await fetch(`${base}/admin/team-member-info/${adminId}`, { headers });
      const body = (await response.json()) as { data?: { id?: string } };
      if (response.status !== 200 || body.data?.id !== adminId) throw new Error(`team-member-info: ${response.status}`);
      if (record) timings.apiPk.push(performance.now() - sent);
    };
    const lookup = async (orderId: string, record: boolean) => {
      const started = performance.now();
      const rows = await driver.query("select * from order_details where order_id = $1", [orderId]);
      if (rows.length !== 1) throw new Error(`no order_details row for ${orderId}`);
      if (record) timings.pk.push(performance.now() - started);
    };
    // Each worker is one browser tab with its own view id, going from order to order.
    const page = async (orderId: string, worker: number, record: boolean) => {
      const started = performance.now();
      await Promise.all(
        pageCalls.map(async (name) => {
          const sent = performance.now();
          await calls[name](orderId, `bench-p9-tab-${worker}`);
          if (record) timings[name].push(performance.now() - sent);
        }),
      );
      if (record) timings.page.push(performance.now() - started);
    };

    const randomIds = (n: number) => Array.from({ length: n }, () => orderIds[Math.floor(Math.random() * orderIds.length)]!);
    const warm = randomIds(WARMUP);
    await inParallel(warm, (id) => lookup(id, false));
    await inParallel(warm, (id, worker) => page(id, worker, false));
    await inParallel(warm, () => floor(false));
    await inParallel(warm, () => Promise.all(pageCalls.map(() => apiLookup(false))).then(() => undefined));
    const ids = randomIds(SAMPLES);
    const measuring = performance.now();
    let apiCpu = 0;
    for (let from = 0; from < ids.length; from += BLOCK) {
      const block = ids.slice(from, from + BLOCK);
      await inParallel(block, (id) => lookup(id, true));
      const before = await cpuMs(api.pid);
      await inParallel(block, (id, worker) => page(id, worker, true));
      const after = await cpuMs(api.pid);
      if (before !== undefined && after !== undefined) apiCpu += after - before;
      await inParallel(block, () => floor(true));
      // The same shape as a page: as many lookups at once as the page makes calls, so both run
      // with the same number of requests in flight on the API.
      await inParallel(block, () => Promise.all(pageCalls.map(() => apiLookup(true))).then(() => undefined));
    }
    console.log(`measured in ${seconds(measuring)}; the API process used ${(apiCpu / ids.length).toFixed(1)} ms of CPU per page; load average ${(await readFile("/proc/loadavg", "utf8").catch(() => "?")).split(" ").slice(0, 3).join(" ")}`);

    const calls95 = pageCalls.flatMap((name) => timings[name]);
    const rows: [string, number[]][] = [
      ["primary-key lookup (API)", timings.apiPk],
      ["primary-key lookup (pg only)", timings.pk],
      ["order page's calls", calls95],
      [`order page (${pageCalls.length} calls at once)`, timings.page],
      ["  GET get-orders-details", timings.details],
      ...(pageCalls.includes("presence") ? [["  POST order-presence", timings.presence] as [string, number[]]] : []),
      ["  GET audit timeline", timings.timeline],
      ["floor: a staff call, empty read", timings.floor],
    ];
    console.log(`${"".padEnd(31)} ${"calls".padStart(6)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
    for (const [name, samples] of rows) {
      const sorted = [...samples].sort((a, b) => a - b);
      const cell = (q: number) => quantile(sorted, q).toFixed(2).padStart(8);
      console.log(`${name.padEnd(31)} ${String(samples.length).padStart(6)} ${cell(0.5)} ${cell(0.95)} ${cell(0.99)}`);
    }
    const p95 = (samples: readonly number[]) => quantile([...samples].sort((a, b) => a - b), 0.95);
    const orderP95 = p95(calls95);
    console.log(
      `for reference: the calls against the pg-only lookup ${(orderP95 / p95(timings.pk)).toFixed(2)}; the whole page against the API lookup ${(p95(timings.page) / p95(timings.apiPk)).toFixed(2)}`,
    );
    console.log(`P9 order_vs_pk=${(orderP95 / p95(timings.apiPk)).toFixed(2)} order_p95_ms=${orderP95.toFixed(2)}`);
  } catch (error) {
    if (api) console.error(`API output:\n${api.output().slice(-4000)}`);
    throw error;
  } finally {
    if (api) {
      api.kill("SIGTERM");
      const ended = await Promise.race([api.exited, new Promise((resolve) => setTimeout(() => resolve(undefined), 10_000))]);
      if (ended === undefined) await api.stop();
    }
    await driver.close();
    if (KEEP) console.error(`P9_KEEP: the database stays at ${database.url}`);
    else await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

await main();
