import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { postgresAvailable } from "@etd/infra/test-database";
import { verifyExport } from "@etd/event-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForQuiet } from "./support/reactors.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 14, tamper evidence through the product: the verify endpoint behind the Audit area's
 * badge, the exports, `npm run audit:verify` on the database and on an exported file (no
 * database), and a permanent delete (crypto-shredding) that leaves the chains intact.
 */

const available = await postgresAvailable();
const CLI = path.resolve(import.meta.dirname, "../../../infra/event-store/bin/audit-verify.ts");

const cli = (args: string[], env: Record<string, string> = {}) => {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, ...env }, timeout: 60_000 });
  return { code: run.status, out: run.stdout + run.stderr };
};

describe.skipIf(!available)("issue 14: verifying the log and its exports (CARD-4)", () => {
  let api: TestApi;
  let admin: string;
  let orderId: string;
  let other: string;
  let dir: string;

  beforeAll(async () => {
    api = await startTestApi();
    admin = await api.login("Admin");
    [orderId, other] = (await api.placeOrders(2)) as [string, string];
    const team = await api.login("Team");
    expect((await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, team)).status).toBe(200);
    expect((await api.call("POST", "/admin/add-new-remark", { orderId, remark: "Called the traveller." }, team)).status).toBe(200);
    // The mail reactor may still append, and the sealer chains each event a moment after it commits.
    await waitForQuiet(api.runtime.driver, api.runtime.deps.store);
    dir = await mkdtemp(path.join(tmpdir(), "audit-chain-"));
  });

  afterAll(async () => {
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const download = async (apiPath: string) => {
    const response = await fetch(`${api.base}/api${apiPath}`, { headers: { authorization: admin } });
    return { status: response.status, type: response.headers.get("content-type") ?? "", text: await response.text() };
  };

  it("issue 14: GET /api/audit/verify walks the whole log and finds it intact, with the chain's head", async () => {
    const { status, body } = await api.call("GET", "/audit/verify", undefined, admin);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 1, message: "The log is intact.", data: { ok: true, checked: await api.eventCount(), firstBreak: null } });
    expect(body.data.headHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("issue 14: an order's export holds its events only, verifies offline, and a changed byte is named by line and event", async () => {
    const file = await download(`/audit/orders/${orderId}/export`);
    expect(file.status).toBe(200);
    expect(file.type).toContain("application/x-ndjson");
    const lines = file.text.trimEnd().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: "etd-audit-export", version: 1, scope: "order", orderId });
    const events = lines.slice(1, -1).map((line) => JSON.parse(line) as { streamId: string; streamPosition: string });
    expect(new Set(events.map((e) => e.streamId))).toEqual(new Set([`order-${orderId}`]));
    expect(events.map((e) => e.streamPosition)).toEqual(events.map((_, i) => String(i + 1)));
    expect(file.text).not.toContain(other);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ end: true, events: events.length, streams: { [`order-${orderId}`]: String(events.length) } });
    expect(await verifyExport(lines)).toMatchObject({ checked: events.length, firstBreak: undefined, unreadable: undefined });
    // The same lines under another order's header are refused: they are not that order's.
    const relabelled = JSON.stringify({ ...(JSON.parse(lines[0]!) as object), orderId: other });
    expect((await verifyExport([relabelled, ...lines.slice(1)])).unreadable).toMatch(/is not part of what the header says/);

    const clean = path.join(dir, "order.jsonl");
    await writeFile(clean, file.text);
    expect(cli(["--file", clean])).toMatchObject({ code: 0, out: expect.stringContaining(`OK: ${events.length} events`) });

    // The remark's text, one character changed, in the file an auditor was given.
    const remarkLine = lines.findIndex((line) => line.includes("RemarkAdded"));
    const tampered = path.join(dir, "tampered.jsonl");
    await writeFile(tampered, lines.map((line, i) => (i === remarkLine ? line.replace('"type":"RemarkAdded"', '"type":"RemarkAddeD"') : line)).join("\n"));
    const position = (JSON.parse(lines[remarkLine]!) as { streamPosition: string }).streamPosition;
    expect(cli(["--file", tampered])).toMatchObject({ code: 1, out: expect.stringContaining(`TAMPERED at line ${remarkLine + 1}: order-${orderId} #${position}`) });
    // A line dropped from the middle.
    const dropped = path.join(dir, "dropped.jsonl");
    await writeFile(dropped, lines.filter((_, i) => i !== 2).join("\n"));
    expect(cli(["--file", dropped])).toMatchObject({ code: 1, out: expect.stringContaining(`order-${orderId} #3 `) });
  });

  it("issue 14: a time range of the whole log exports as one slice that verifies offline", async () => {
    const to = new Date(Date.now() + 60_000).toISOString();
    const file = await download(`/audit/log/export?from=2020-01-01T00:00:00Z&to=${to}`);
    expect(file.status).toBe(200);
    const lines = file.text.trimEnd().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ scope: "log", from: "2020-01-01T00:00:00.000Z" });
    expect(await verifyExport(lines)).toMatchObject({ checked: await api.eventCount(), firstBreak: undefined });
    // Cut short, or one mail's stream dropped whole, or the header's range widened: each refused.
    expect(await verifyExport(lines.slice(0, -1))).toMatchObject({ unreadable: "the file ends without its last line: it was cut short" });
    expect((await verifyExport([...lines.slice(0, -2), lines.at(-1)!])).unreadable).toMatch(/lines are missing/);
    const narrowed = JSON.stringify({ ...(JSON.parse(lines[0]!) as object), to: "2020-01-02T00:00:00.000Z" });
    expect((await verifyExport([narrowed, ...lines.slice(1)])).unreadable).toMatch(/outside the range its header names/);
    // Year 0 parses in JavaScript, not in PostgreSQL: refused before anything is streamed.
    expect(await download(`/audit/log/export?from=0000-01-01&to=9999-12-31`)).toMatchObject({ status: 400 });
    // Two neighbouring lines swapped: the slice no longer links.
    const swapped = [lines[0]!, lines[1]!, lines[3]!, lines[2]!, ...lines.slice(4)];
    expect((await verifyExport(swapped)).firstBreak).toBeDefined();
  });

  it("issue 28 review: an export holds one of the member's two export slots until its file ends or is given up, never longer", async () => {
    const to = new Date(Date.now() + 60_000).toISOString();
    // Each finished file frees its slot: one after another, a member never runs out.
    for (const apiPath of [`/audit/log/export?from=2020-01-01T00:00:00Z&to=${to}`, `/audit/orders/${orderId}/export`].flatMap((p) => [p, p, p])) {
      expect((await download(apiPath)).status).toBe(200);
    }
    // Two downloads given up before a byte is read: their slots come back once the server sees them go.
    for (const _ of [1, 2]) await (await fetch(`${api.base}/api/audit/orders/${orderId}/export`, { headers: { authorization: admin } })).body!.cancel();
    for (const deadline = Date.now() + 30_000; ; ) {
      const [first, second] = await Promise.all([download(`/audit/orders/${orderId}/export`), download(`/audit/orders/${other}/export`)]);
      if (first.status === 200 && second.status === 200) break;
      expect([first.status, second.status]).toContain(429);
      if (Date.now() > deadline) throw new Error("given-up exports never freed their slots");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it("issue 14: a permanent delete (the key destroyed) leaves both chains intact", async () => {
    const erased = await api.call("PUT", "/admin/change-order-status", { orderId: [other], updatingStatus: "Deleted", permanentDeletedFlag: true }, admin);
    expect(erased.status).toBe(200);
    await waitForQuiet(api.runtime.driver, api.runtime.deps.store);
    const { body } = await api.call("GET", "/audit/verify", undefined, admin);
    expect(body.data).toMatchObject({ ok: true, checked: await api.eventCount() });
  });

  it("issue 14: one changed byte in the database is named by the endpoint and by npm run audit:verify", async () => {
    const [row] = await api.runtime.driver.query(
      `select stream_position::text as p, event_id::text as id from es_events where stream_id = $1 and type = 'RemarkAdded'`,
      [`order-${orderId}`],
    );
    expect(cli([], { DATABASE_URL: api.database.url })).toMatchObject({ code: 0, out: expect.stringContaining("OK: ") });
    await api.runtime.driver.query(`update es_events set metadata = jsonb_set(metadata, '{requestIp}', '"10.0.0.9"') where event_id = $1`, [row!.id]);
    const { body } = await api.call("GET", "/audit/verify", undefined, admin);
    expect(body).toMatchObject({
      status: 1,
      message: "The log does not match its hashes.",
      data: { ok: false, firstBreak: { streamId: `order-${orderId}`, streamPosition: row!.p, eventId: row!.id, reason: "content" } },
    });
    expect(cli([], { DATABASE_URL: api.database.url })).toMatchObject({
      code: 1,
      out: expect.stringContaining(`TAMPERED: order-${orderId} #${String(row!.p)} (event ${String(row!.id)}): content`),
    });
  });
});
