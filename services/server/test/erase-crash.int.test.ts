import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openPostgresDriver, type SqlDriver } from "@etd/event-store";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "@etd/infra/test-database";
import { generateDemoOrders, seededRandom } from "@etd/demo";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumInstalled } from "@etd/pdf";
import { firstAdminSettings, startApiProcess, type ApiProcess } from "./support/api-process.ts";

const available = await postgresAvailable();
const withPacks = await chromiumInstalled();
if (!withPacks) console.warn("NOTICE: Chromium is not installed: the erase crash test runs without rendered defence packs.");

const ROUNDS = 20;
const FIRST_ORDER_ID = 6_100_001;
const ADMIN = { email: "erase.admin@example.com", password: "erase-test-password" };
const INTAKE_TOKEN = "intake-token-for-the-erase-test-0123456789";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

/*
 * Issue 9 item 1: a permanent delete is decided and recorded first, and the erasure (the order's
 * key, its uploaded documents, its rendered defence packs) follows from the event. The API is
 * killed with SIGKILL at a random moment of a permanent delete, 20 times, and restarted: a client
 * that got no answer sends the delete again (the decider refuses a second one). Afterwards the
 * key, the files and the PDFs are gone, the history holds the event, and the order reads as
 * erased. The seed is printed so that a failing run can be replayed with ERASE_SEED.
 */
describe.skipIf(!available)("erase: the API killed with SIGKILL during a permanent delete", () => {
  const seed = Number(process.env.ERASE_SEED) || Date.now() % 1_000_000_007;
  let database: TestDatabase | undefined;
  let dataDir = "";
  let driver: SqlDriver | undefined;
  let settings: Record<string, string>;
  const processes: ApiProcess[] = [];
  /**
   * The process the next round kills: the one the round before restarted (and checked the erase
   * with), or the one that placed the orders. Each round starts one process, not two.
   */
  let running: ApiProcess | undefined;
  const orders: { orderId: string; email: string }[] = [];

  const start = async () => {
    const api = await startApiProcess(settings);
    processes.push(api);
    return api;
  };

  const call = async (base: string, method: string, apiPath: string, body?: unknown, token?: string) => {
    const response = await fetch(`${base}/api${apiPath}`, {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: token } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    return { status: response.status, text, body: text.startsWith("{") ? (JSON.parse(text) as Record<string, any>) : {} };
  };

  const signIn = async (base: string) => {
    const answer = await call(base, "POST", "/admin/admin-login", ADMIN);
    if (answer.status !== 200) throw new Error(`signing in failed: ${answer.text}`);
    return answer.body.jwtToken as string;
  };

  const folderOf = (orderId: string) => path.join(dataDir, "uploads", "docs", orderId);
  const keyState = async (orderId: string) => {
    const [row] = await driver!.query("select octet_length(key) as bytes from es_stream_keys where stream_id = $1", [`order-${orderId}`]);
    return row === undefined ? "none" : Number(row.bytes) === 0 ? "destroyed" : "present";
  };
  const erasedEvents = async (orderId: string) =>
    (await driver!.query("select 1 from es_events where stream_id = $1 and type = 'OrderPermanentlyDeleted'", [`order-${orderId}`])).length;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), "etd-erase-"));
    settings = firstAdminSettings({ databaseUrl: database.url, dataDir, admin: ADMIN, intakeToken: INTAKE_TOKEN, jwtSecret: "an-erase-test-secret-that-is-long-enough-0123456789" });
    driver = await openPostgresDriver({ connectionString: database.url, maxConnections: 1 });

    const api = await start();
    const token = await signIn(api.base);
    const today = new Date().toISOString().slice(0, 10);
    for (const [i, body] of generateDemoOrders({ seed, count: ROUNDS, now: new Date() }).entries()) {
      const orderId = String(FIRST_ORDER_ID + i);
      const email = `erase.traveller.${i}@example.com`;
      const placed = await call(api.base, "POST", "/intake/orders", { ...body, order_id: orderId, email, confirm_email: email, processing_date: today }, `Bearer ${INTAKE_TOKEN}`);
      if (placed.status !== 200) throw new Error(`placing ${orderId} failed: ${placed.text}`);
      const form = new FormData();
      for (const [key, value] of Object.entries({ orderId, email })) form.append(key, value);
      form.append("uploadVisaDoc", new Blob([new Uint8Array(PDF)]), `E-Travel ${i}.pdf`);
      const uploaded = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: token } });
      if (uploaded.status !== 200) throw new Error(`uploading for ${orderId} failed: ${await uploaded.text()}`);
      if (withPacks) {
        await call(api.base, "PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: "Completed" }, token);
        const pack = await call(api.base, "POST", "/admin/get-defence-pack-pdf", { orderId, defencePackType: 1 }, token);
        if (pack.status !== 200) throw new Error(`the pack of ${orderId} failed: ${pack.text.slice(0, 300)}`);
      }
      orders.push({ orderId, email });
    }
    running = api;
  }, 180_000);

  afterAll(async () => {
    for (const api of processes) await api.stop();
    await driver?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(`${ROUNDS} kills at random points; after each restart the erase is complete`, async () => {
    console.log(`erase crash test seed ${seed} (replay with ERASE_SEED=${seed})`);
    const random = seededRandom(seed);
    const seen = { notRecorded: 0, recordedNotErased: 0, partlyErased: 0, erased: 0 };
    for (const { orderId, email } of orders) {
      const files = await readdir(folderOf(orderId));
      expect(files.length).toBe(withPacks ? 2 : 1);
      expect(await keyState(orderId)).toBe("present");

      const api = running ?? (await start());
      const token = await signIn(api.base);
      const erase = () => call(api.base, "PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: "Deleted", permanentDeletedFlag: true }, token);
      const answer = erase().catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, random.int(0, 40)));
      api.kill("SIGKILL");
      await api.exited;
      await answer;

      // Where the kill landed, to show the rounds cover the whole path.
      const recorded = (await erasedEvents(orderId)) > 0;
      const key = await keyState(orderId);
      const folder = existsSync(folderOf(orderId));
      if (!recorded) seen.notRecorded++;
      else if (key === "present" && folder) seen.recordedNotErased++;
      else if (key === "present" || folder) seen.partlyErased++;
      else seen.erased++;

      const restarted = await start();
      if (!recorded) {
        // The client never heard back; it sends the delete again.
        const again = await call(restarted.base, "PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: "Deleted", permanentDeletedFlag: true }, await signIn(restarted.base));
        // A COMMIT sent just before the kill may become visible only after the count above: the
        // retry then finds the order erased already, which is the same outcome for the client.
        if (again.body.status !== 1) expect(again.body.message, again.text).toBe(`Order ${orderId} was permanently deleted.`);
      }
      const until = Date.now() + 15_000;
      while ((existsSync(folderOf(orderId)) || (await keyState(orderId)) !== "destroyed") && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await keyState(orderId)).toBe("destroyed");
      expect(existsSync(folderOf(orderId))).toBe(false);
      expect(await erasedEvents(orderId)).toBe(1);
      const history = await call(restarted.base, "GET", `/audit/orders/${orderId}/history`, undefined, await signIn(restarted.base));
      expect(history.status).toBe(200);
      expect(history.text).toContain('"personal":{"erased":true}');
      expect(history.text).toContain("OrderPermanentlyDeleted");
      expect(history.text).not.toContain(email);
      running = restarted;
    }
    // Nothing of an erased order waits in staging either: the restart's sweep removed it.
    const staging = path.join(dataDir, "uploads", ".staging");
    expect((await readdir(staging)).filter((name) => name.startsWith("erase-"))).toEqual([]);
    console.log(`erase crash test: where the ${ROUNDS} kills landed: ${JSON.stringify(seen)}`);
  }, 600_000);
});
