import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import * as Result from "effect/Result";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemoOrders } from "@etd/demo";
import { parsePosition } from "@etd/event-store";
import { isMailRequestType } from "@etd/events";
import { kafkaUnavailable, startKafkaBroker, type KafkaBroker } from "@etd/infra/kafka-broker";
import { postgresAvailable } from "@etd/infra/test-database";
import { decodePlaceOrderRequest, PlaceOrderRequest } from "@etd/write";
import { chromiumInstalled, chromiumPath } from "@etd/pdf";
import { ERASURE_REACTOR } from "@etd/reactors";
import { ORDERS_V1 } from "@etd/relay";
import { RELAY_REACTOR } from "@etd/relay";
import { activateGateway } from "./support/gateways.ts";
import { readTopic } from "./support/kafka-reader.ts";
import { trackOrder } from "./support/public-visitor.ts";
import { waitForQuiet, waitForReactor } from "./support/reactors.ts";
import { tablesHolding } from "./support/tables-holding.ts";
import { INTAKE_TOKEN, startTestApi, type TestApi } from "./support/test-api.ts";

/*
 * Issue 25, must show: erasure leaves nothing. One order carries one marker string in every text
 * intake accepts (its name, the e-mail's local part, addresses, passport, the trip as typed, the
 * customs entries and currency instruments), in its uploaded file's name, its remark, its
 * transaction id and merchant, the device its download was made with, and so in every mail sent
 * for it. It goes through everything that copies those values somewhere (mails to the outbox, a
 * public download, with the visitor's own request id, defence packs, audit exports, the Kafka
 * relay), and is then deleted permanently. Once the erasure reactor's checkpoint has passed the
 * delete (and every read model, the mail reactor, the sealer and the relay have reached the log's
 * head), the marker is in no row of any table of the database, in no stored event's bytes, in no
 * file under DATA_DIR (uploads, defence packs, the outbox), in no audit answer or export, and in
 * no message of orders.v1. The order's rows stay in the read models, erased rather than gone.
 */

const postgres = await postgresAvailable();
const chromium = await chromiumInstalled();
if (postgres && !chromium) console.warn(`\n*** issue 25 erasure test: defence packs NOT rendered: no Chromium at ${chromiumPath()} ***\n`);
const noKafka = kafkaUnavailable();
if (postgres && noKafka) console.warn(`\n*** issue 25 erasure test: the orders.v1 part is SKIPPED: ${noKafka} ***\n`);

const MARKER = "MARKER7q3z";
const ORDER_ID = "250025025";
const EMAIL = `${MARKER}.liza@example.com`;
const FILE = `${MARKER}_passport.pdf`;
const PDF = Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${MARKER}\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
// A browser Bowser does not know is named as the User-Agent names it: a visitor's own text, which the download records.
const USER_AGENT = `${MARKER}Browser/1.0 (${MARKER} OS)`;

/**
 * A paid order whose every free-text field carries the marker: each field intake takes as text is
 * found by asking intake's own decoder, so a text field added later is covered without this list
 * changing. The e-mail's local part and the two lists' typed parts carry it too.
 */
const markedOrder = (): Record<string, unknown> => {
  const [demo] = generateDemoOrders({ seed: 2525, count: 1, now: new Date() });
  const base: Record<string, unknown> = { ...demo, order_id: ORDER_ID, email: EMAIL, confirm_email: EMAIL, processing_date: new Date().toISOString().slice(0, 10) };
  const textFields = Object.keys(PlaceOrderRequest.fields).filter((key) => Result.isSuccess(decodePlaceOrderRequest({ ...base, [key]: `${MARKER} ${key}` })));
  expect(textFields.length).toBeGreaterThan(75);
  const body: Record<string, unknown> = {
    ...base,
    ...Object.fromEntries(textFields.map((key) => [key, `${MARKER} ${key}`])),
    cosmetics_skincare: "Yes",
    custom_declaration_details: [
      { type: "cosmetics_skincare_info", details: [{ cosmetics_skincare_description: `${MARKER} sunscreen`, cosmetics_skincare_quantity: 2, cosmetics_skincare_amount_in_usd: "20.00" }] },
    ],
    instrument_information: [{ id: `${MARKER}-1`, currency: `${MARKER} pesos`, monetaryInstrument: `${MARKER} cash`, amount: "1000.00" }],
  };
  const decoded = decodePlaceOrderRequest(body);
  if (Result.isFailure(decoded)) throw new Error(decoded.failure.message);
  return body;
};

/** Every file under `dir`, recursively, whose name or bytes hold the marker. */
const filesHolding = async (dir: string, needle: string): Promise<{ files: string[]; holders: string[] }> => {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
  const holders: string[] = [];
  for (const file of files) {
    if (file.toLowerCase().includes(needle.toLowerCase())) holders.push(`${file} (name)`);
    else if ((await readFile(file)).toString("latin1").toLowerCase().includes(needle.toLowerCase())) holders.push(file);
  }
  return { files: files.map((file) => path.relative(dir, file)), holders };
};

const until = async <T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${String(timeoutMs)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe.skipIf(!postgres)("issue 25: a permanently deleted order leaves its marker nowhere", () => {
  let api: TestApi;
  let broker: KafkaBroker | undefined;
  let kafkaSkipped: string | undefined = noKafka;
  let admin: string;
  const text = async (response: Response) => `${String(response.status)} ${await response.text()}`;
  const get = async (apiPath: string) => text(await fetch(`${api.base}/api${apiPath}`, { headers: { authorization: admin } }));

  beforeAll(async () => {
    api = await startTestApi();
    if (!kafkaSkipped) {
      try {
        broker = await startKafkaBroker();
        await api.runtime.startRelay({ brokers: [broker.brokers], clientId: "erasure-marker-test" });
      } catch (error) {
        kafkaSkipped = `the broker did not start: ${(error as Error).message}`;
        console.warn(`\n*** issue 25 erasure test: the orders.v1 part is SKIPPED: ${kafkaSkipped} ***\n`);
      }
    }
    admin = await api.login("Admin");
  }, 240_000);

  afterAll(async () => {
    await api?.close();
    await broker?.stop();
  });

  /** Every audit answer about the order and its Admin: the replay (history, as-of, diff, activity) and both exports as stored. */
  const auditAnswers = async () => {
    const [from, to] = ["2000-01-01T00:00:00.000Z", new Date(Date.now() + 60_000).toISOString()];
    const range = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    return {
      history: await get(`/audit/orders/${ORDER_ID}/history`),
      asOf: await get(`/audit/orders/${ORDER_ID}/as-of?at=${encodeURIComponent(to)}`),
      diff: await get(`/audit/orders/${ORDER_ID}/diff?${range}`),
      activity: await get(`/audit/staff/${api.staff.Admin.id}/activity?${range}`),
      orderExport: await get(`/audit/orders/${ORDER_ID}/export`),
      logExport: await get(`/audit/log/export?${range}`),
    };
  };

  it("finds the marker in no table, stored event, file, audit answer or Kafka message once the erasure has passed the delete", async () => {
    // Placed through intake, every text field marked.
    const placed = await api.call("POST", "/intake/orders", markedOrder(), `Bearer ${INTAKE_TOKEN}`);
    expect(placed.body).toMatchObject({ status: 1 });

    // The document, uploaded under a marked name; its mail goes to the outbox (no provider is configured).
    const form = new FormData();
    form.append("orderId", ORDER_ID);
    form.append("email", EMAIL);
    form.append("mailServiceProvider", "AWS");
    form.append("uploadVisaDoc", new Blob([new Uint8Array(PDF)]), FILE);
    const uploaded = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: admin } });
    expect(await text(uploaded)).toMatch(/^200 /);

    // Downloaded publicly, as the tracker's page does: the download is recorded, then the file fetched.
    const cookie = await trackOrder(api, ORDER_ID);
    const recorded = await fetch(`${api.base}/api/front/download-passport-doc-pdf`, {
      method: "POST",
      // A visitor's own request id is text they write too: metadata is never sealed, so it is not kept.
      headers: { "content-type": "application/json", cookie, "user-agent": USER_AGENT, "x-request-id": `${MARKER}-download` },
      body: JSON.stringify({ orderId: ORDER_ID, file1: FILE }),
    });
    expect(await text(recorded)).toMatch(/^200 /);
    const file = await fetch(`${api.base}/uploads/docs/${ORDER_ID}/${encodeURIComponent(FILE)}`, { headers: { cookie, "user-agent": USER_AGENT } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);

    // Every kind of mail: the upload's, a resend, a reminder and the invoice.
    await activateGateway(api);
    for (const [apiPath, body] of [
      ["/admin/resend-mail", { orderId: ORDER_ID, email: EMAIL, mailServiceProvider: "Sendgrid" }],
      ["/admin/send-reminder-mail", { orderId: ORDER_ID, email: EMAIL, mailServiceProvider: "AWS" }],
      ["/admin/send-invoice", { orderId: ORDER_ID, mailServiceProvider: "AWS" }],
      ["/admin/add-new-remark", { orderId: ORDER_ID, remark: `Called ${MARKER} on +63 917 000 0000`, telephone: "Y" }],
    ] as const) {
      expect((await api.call("POST", apiPath, body, admin)).body, apiPath).toMatchObject({ status: 1 });
    }
    // Dispute evidence: the order completed, its payment's references typed, both packs rendered.
    expect((await api.call("PUT", "/admin/change-order-status", { orderId: [ORDER_ID], updatingStatus: "Completed" }, admin)).body).toMatchObject({ status: 1 });
    const transaction = { orderId: ORDER_ID, transactionId: `ch_${MARKER}`, merchantName: `${MARKER} Merchant` };
    expect((await api.call("POST", "/admin/save-transaction-details", transaction, admin)).body).toMatchObject({ status: 1 });
    if (chromium) {
      for (const defencePackType of [1, 2]) {
        const pack = await fetch(`${api.base}/api/admin/get-defence-pack-pdf`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: admin },
          body: JSON.stringify({ orderId: ORDER_ID, defencePackType }),
        });
        expect(pack.status, `defence pack ${String(defencePackType)}`).toBe(200);
      }
    }

    // Every mail handed to the outbox.
    const mailIds = (await api.runtime.deps.store.readStream(`order-${ORDER_ID}`)).filter((event) => isMailRequestType(event.type)).map((event) => event.eventId);
    expect(mailIds).toHaveLength(4);
    for (const mailId of mailIds) {
      await until(`mail ${mailId} sent`, async () => ((await api.runtime.deps.store.readStream(`mail-${mailId}`)).some((event) => event.type === "MailSent") ? true : undefined));
    }
    await waitForQuiet(api.runtime.driver, api.runtime.deps.store);

    // Before: the check can fail. The marker is in the read models, the outbox, the upload folder
    // and the audit's replay (which decrypts), though never in the log's stored bytes.
    const before = await tablesHolding(api.database.url, MARKER);
    // Every read model that copies a sealed value: the document and transaction, the list row and
    // its search text, the mails' file, the download's device and file, the remark, the audit's
    // sentences (file, transaction), the report's citizenship and the country's name.
    for (const table of ["order_details", "queue_orders", "mail_history", "download_history", "comment_history", "audit_timeline", "report_orders", "report_country_names"]) {
      // A read model's table is its build's (`order_details_v5_b1`), under the name's view.
      expect(before.holders.join("\n"), table).toMatch(new RegExp(`"${table}(_v\\d+_b\\d+)?"`));
    }
    expect((await api.runtime.driver.query("select browser from download_history where order_id = $1", [ORDER_ID]))[0]!.browser).toContain(MARKER);
    expect(before.holders.some((table) => table.includes("es_events"))).toBe(false);
    const filesBefore = await filesHolding(api.dataDir, MARKER);
    expect(filesBefore.holders.filter((file) => file.includes(`${path.sep}outbox${path.sep}`))).toHaveLength(4);
    expect(filesBefore.holders.some((file) => file.endsWith(`${FILE} (name)`))).toBe(true);
    const auditBefore = await auditAnswers();
    expect(auditBefore.history).toContain(MARKER);
    expect(auditBefore.orderExport).toMatch(/^200 /);
    expect(auditBefore.orderExport).not.toContain(MARKER);
    expect(auditBefore.logExport).not.toContain(MARKER);

    // The permanent delete, and the erasure reactor past it.
    const erased = await api.call("PUT", "/admin/change-order-status", { orderId: [ORDER_ID], updatingStatus: "Deleted", permanentDeletedFlag: true }, admin);
    expect(erased.body).toMatchObject({ status: 1 });
    const deletedAt = erased.body.data.position as string;
    await waitForReactor(api.runtime.driver, ERASURE_REACTOR, deletedAt);
    await waitForQuiet(api.runtime.driver, api.runtime.deps.store);

    const after = await tablesHolding(api.database.url, MARKER);
    expect(after.scanned).toBeGreaterThan(20);
    expect(after.holders).toEqual([]);
    const filesAfter = await filesHolding(api.dataDir, MARKER);
    expect(filesAfter.holders).toEqual([]);
    expect(filesAfter.files.filter((name) => name.includes(ORDER_ID))).toEqual([]);
    const auditAfter = await auditAnswers();
    for (const [answer, body] of Object.entries(auditAfter)) {
      expect(body, answer).toMatch(/^200 /);
      expect(body, answer).not.toContain(MARKER);
    }
    // The exports still hold the whole history, as stored: erased, not cut.
    expect(auditAfter.orderExport.split("\n").filter((line) => line.includes(`"order-${ORDER_ID}"`)).length).toBeGreaterThanOrEqual(12);

    // Erased, not vanished: the order's rows stay where its history is shown.
    const rows = async (sql: string) => Number((await api.runtime.driver.query(sql, [ORDER_ID]))[0]!.n);
    expect(await rows("select count(*) as n from order_details where order_id = $1 and erased and process_status = 'Deleted'")).toBe(1);
    expect(await rows("select count(*) as n from queue_orders where order_id = $1 and erased and process_status = 'Deleted'")).toBe(1);
    expect(await rows("select count(*) as n from mail_history where order_id = $1")).toBe(4);
    expect(await rows("select count(*) as n from download_history where order_id = $1")).toBe(1);
    expect(await rows("select count(*) as n from comment_history where order_id = $1")).toBe(1);
    expect(await rows("select count(*) as n from audit_timeline where order_id = $1")).toBeGreaterThanOrEqual(12);
    expect(await rows("select count(*) as n from report_orders where order_id = $1")).toBe(1);
    const page = await api.call("GET", `/admin/get-order-details/${ORDER_ID}`, undefined, admin);
    if (page.status === 200) expect(JSON.stringify(page.body)).not.toContain(MARKER);

    // orders.v1, read from the start as another team's consumer would: every order event but the
    // remark was published, none with the marker.
    if (kafkaSkipped) {
      console.warn(`\n*** issue 25 erasure test: orders.v1 NOT checked: ${kafkaSkipped} ***\n`);
      return;
    }
    const head = await api.runtime.deps.store.headPosition();
    await waitForReactor(api.runtime.driver, RELAY_REACTOR, head ?? parsePosition(deletedAt)!, 120_000);
    const published = (await api.runtime.deps.store.readStream(`order-${ORDER_ID}`)).filter((event) => event.type !== "RemarkAdded").length;
    const records = await readTopic(broker!.brokers, ORDERS_V1, { expected: published });
    expect(records.filter((record) => record.key === ORDER_ID)).toHaveLength(published);
    for (const record of records) {
      expect(JSON.stringify(record)).not.toContain(MARKER);
      expect(JSON.stringify(record).toLowerCase()).not.toContain(MARKER.toLowerCase());
    }
  }, 300_000);
});
