import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemoOrders } from "@etd/demo";
import { parsePosition } from "@etd/event-store";
import { ALL_PROJECTIONS, waitForPosition } from "@etd/projections";
import { ERASURE_REACTOR } from "@etd/reactors";
import { waitForReactor } from "./support/reactors.ts";
import { tablesHolding } from "./support/tables-holding.ts";
import { activateGateway } from "./support/gateways.ts";
import { INTAKE_TOKEN, startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

describe.skipIf(!available)("permanent delete erases the traveller (DESIGN §3)", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it("after a permanent delete the passport number and names are in no table of the database", async () => {
    const [body] = generateDemoOrders({ seed: 77, count: 1, now: new Date() });
    const traveller = { first_name: "Evangelina", last_name: "Quisumbing-Arroyo", passport_number: "XQ9081726", email: "evangelina.q@example.com" };
    const placed = await api.call("POST", "/intake/orders", { ...body, ...traveller, confirm_email: traveller.email, order_id: "555000111" }, `Bearer ${INTAKE_TOKEN}`);
    expect(placed.body).toMatchObject({ status: 1 });
    const admin = await api.login("Admin");
    await api.call("PUT", "/admin/assign-order-status", { orderId: ["555000111"], assignto: "Alicia" }, admin);
    await activateGateway(api);
    await api.call("POST", "/admin/send-invoice", { orderId: "555000111", email: traveller.email }, admin);
    // Issue 12: the invoice mail goes out (to the outbox: no provider is configured) with the
    // traveller's name and address in it, kept as sent in the mail's own stream.
    const invoiceMail = (await api.runtime.deps.store.readStream("order-555000111")).find((e) => e.type === "InvoiceSent")!.eventId;
    const outbox = path.join(api.dataDir, "outbox");
    for (let tries = 0; !(await api.runtime.deps.store.readStream(`mail-${invoiceMail}`)).some((e) => e.type === "MailSent"); tries++) {
      if (tries > 400) throw new Error("the invoice mail was never sent");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const outboxCopies = async () => (await readdir(outbox)).filter((name) => name.startsWith(`${invoiceMail}.`));
    expect(await outboxCopies()).toHaveLength(1);
    expect(await readFile(path.join(outbox, (await outboxCopies())[0]!), "utf8")).toContain(traveller.email);
    expect((await api.call("GET", `/admin/mail-content/${invoiceMail}`, undefined, admin)).body.data).toMatchObject({ to: traveller.email });

    // The check can fail: before the erase the read model shows the passport number (the search
    // finds it), while the log holds it only sealed.
    const before = await api.runtime.deps.store.readStream("order-555000111");
    expect(JSON.stringify(before.map((e) => e.data))).toContain(traveller.passport_number);
    await waitForPosition(api.runtime.driver, before.at(-1)!.position, ALL_PROJECTIONS.map((p) => p.name));
    const { holders } = await tablesHolding(api.database.url, traveller.passport_number);
    expect(holders.length).toBeGreaterThan(0);
    expect(holders.some((table) => table.includes("es_events"))).toBe(false);

    const refused = await api.call("PUT", "/admin/change-order-status", { orderId: ["555000111"], updatingStatus: "Deleted", permanentDeletedFlag: true }, await api.login("Manager"));
    expect(refused.status).toBe(403);

    const erased = await api.call("PUT", "/admin/change-order-status", { orderId: ["555000111"], updatingStatus: "Deleted", permanentDeletedFlag: true }, admin);
    expect(erased.body).toMatchObject({ status: 1, message: "Order has been deleted successfully" });
    expect(await waitForPosition(api.runtime.driver, parsePosition(erased.body.data.position as string)!, ALL_PROJECTIONS.map((p) => p.name))).toBe(true);
    await waitForReactor(api.runtime.driver, ERASURE_REACTOR, erased.body.data.position as string);

    for (const needle of [traveller.passport_number, traveller.first_name, traveller.last_name, traveller.email]) {
      const after = await tablesHolding(api.database.url, needle);
      // The scan reached the log and the read models, not an empty schema.
      expect(after.scanned).toBeGreaterThanOrEqual(3);
      expect(after.holders, needle).toEqual([]);
    }
    // The mail's sealed content is unreadable and the outbox's copy is gone.
    expect(await outboxCopies()).toEqual([]);
    expect((await api.call("GET", `/admin/mail-content/${invoiceMail}`, undefined, admin)).status).toBe(404);
    const after = await api.runtime.deps.store.readStream("order-555000111");
    expect(after.map((e) => e.type)).toEqual(["OrderPlaced", "OrderAssigned", "InvoiceSent", "OrderStatusChanged", "OrderPermanentlyDeleted"]);
    expect(after[0]!.data).toMatchObject({ personal: { erased: true } });
    expect(JSON.stringify(after.map((e) => e.data))).not.toContain(traveller.passport_number);

    const again = await api.call("POST", "/admin/add-new-remark", { orderId: "555000111", remark: "hello" }, admin);
    expect(again).toMatchObject({ status: 409, body: { message: "Order 555000111 was permanently deleted." } });
    const track = await api.call("POST", "/front/track-order", { orderId: "555000111", email: traveller.email });
    expect(track.status).toBe(404);
  });

  it("a permanent delete of an order that does not exist destroys no key, so the id can still be placed", async () => {
    const admin = await api.login("Admin");
    const refused = await api.call("PUT", "/admin/change-order-status", { orderId: ["555000222"], updatingStatus: "Deleted", permanentDeletedFlag: true }, admin);
    expect(refused).toMatchObject({ status: 404, body: { message: "Order 555000222 was not found." } });
    const [body] = generateDemoOrders({ seed: 78, count: 1, now: new Date() });
    const placed = await api.call("POST", "/intake/orders", { ...body, order_id: "555000222" }, `Bearer ${INTAKE_TOKEN}`);
    expect(placed.body).toMatchObject({ status: 1 });
  });
});
