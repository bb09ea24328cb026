import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activateGateway } from "./support/gateways.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

/** The order's stream as event types, the audit trail a client would replay. */
const typesOf = async (api: TestApi, orderId: string) =>
  (await api.runtime.deps.store.readStream(`order-${orderId}`)).map((e) => e.type);

describe.skipIf(!available)("order commands over HTTP", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  it("QUEUE-9: Assign to me answers the spec's message and the position of the event", async () => {
    const [orderId] = await api.placeOrders(1);
    const answer = await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "Tessa Cruz" }, await api.login("Team"));
    expect(answer).toMatchObject({ status: 200, body: { status: 1, message: "Order has been assigned successfully" } });
    expect(answer.body.data.position).toMatch(/^\d+\.\d+$/);
    expect(await typesOf(api, orderId!)).toEqual(["OrderPlaced", "OrderAssigned"]);

    const again = await api.call("PUT", "/admin/assign-order-status", { orderId: orderId, assignto: "x" }, await api.login("Manager"));
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(new RegExp(`^Order ${orderId} was assigned to Tessa Cruz at \\d{2}:\\d{2}:\\d{2} UTC\\.$`));
  });

  it("QUEUE-10: Move to Original Folder clears the assignment", async () => {
    const [orderId] = await api.placeOrders(1);
    const token = await api.login("Night Staff");
    await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "Nina" }, token);
    const moved = await api.call("PUT", "/admin/move-order-status", { orderId: [orderId] }, token);
    expect(moved.body).toMatchObject({ status: 1, message: "Order has been moved to new orders successfully" });
    expect(await typesOf(api, orderId!)).toEqual(["OrderPlaced", "OrderAssigned", "OrderMovedToOriginalFolder"]);
  });

  it("QUEUE-8: delete is a soft delete with the spec's message; moving the order again undoes it", async () => {
    const [first, second] = await api.placeOrders(2);
    const manager = await api.login("Manager");
    const deleted = await api.call("PUT", "/admin/change-order-status", { orderId: [first, second], updatingStatus: "Deleted", permanentDeletedFlag: false }, manager);
    expect(deleted.body).toMatchObject({ status: 1, message: "Order has been deleted successfully", data: { changed: [first, second] } });
    const restored = await api.call("PUT", "/admin/change-order-status", { orderId: [first], updatingStatus: "Awaiting Response" }, manager);
    expect(restored.body).toMatchObject({ status: 1 });
    const stream = await api.runtime.deps.store.readStream(`order-${first}`);
    expect(stream.slice(1).map((e) => [e.type, (e.data as { to: string }).to])).toEqual([
      ["OrderStatusChanged", "Deleted"],
      ["OrderStatusChanged", "Awaiting"],
    ]);
  });

  it("a bulk action where some orders are refused says which, and keeps the ones that changed", async () => {
    const [free, taken] = await api.placeOrders(2);
    await api.call("PUT", "/admin/assign-order-status", { orderId: [taken], assignto: "x" }, await api.login("Admin"));
    const answer = await api.call("PUT", "/admin/assign-order-status", { orderId: [free, taken, "999999"], assignto: "x" }, await api.login("Team"));
    expect(answer.status).toBe(409);
    expect(answer.body.message).toMatch(/^2 of 3 orders were not changed\. Order \d+ was assigned to Alicia Ramos at/);
    expect(answer.body.data.changed).toEqual([free]);
    expect(answer.body.data.refused.map((r: { orderId: string }) => r.orderId)).toEqual([taken, "999999"]);
    expect(answer.body.data.refused[1].message).toBe("Order 999999 was not found.");
  });

  it("ORDER-10: a remark with the Refund flag requests a refund; QUEUE-11 Refunded it completes it", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    const missing = await api.call("POST", "/admin/add-new-remark", { orderId, remark: "  " }, team);
    expect(missing).toMatchObject({ status: 400, body: { status: 0, message: "Please enter your remark" } });

    const remark = await api.call(
      "POST",
      "/admin/add-new-remark",
      { orderId, remark: "Customer cancelled the trip.", remarkerName: "someone else", whatsapp: "Y", telephone: "N", statusRefund: "Y", voided: "N", chargeBack: "N" },
      team,
    );
    expect(remark.body).toMatchObject({ status: 1, message: "Remark has been added successfully" });
    const stream = await api.runtime.deps.store.readStream(`order-${orderId}`);
    expect(stream.map((e) => e.type)).toEqual(["OrderPlaced", "RemarkAdded", "OrderRefundRequested"]);
    expect(stream[1]!.data).toMatchObject({ remarkerName: "Tessa Cruz", whatsapp: true, telephone: false, statusRefund: true });

    const refunded = await api.call("PUT", "/admin/move-to-complete-refund", { orderId: [orderId] }, team);
    expect(refunded.body).toMatchObject({ status: 1, message: "Order has been refunded successfully" });
    const twice = await api.call("PUT", "/admin/move-to-complete-refund", { orderId: [orderId] }, team);
    expect(twice).toMatchObject({ status: 409, body: { status: 0 } });
    expect(twice.body.message).toContain(`Order ${orderId} is not waiting for a refund`);
  });

  it("ORDER-13: transaction details only for Completed, Customer Called or Chargeback, with the form's messages", async () => {
    const [orderId] = await api.placeOrders(1);
    const admin = await api.login("Admin");
    expect((await api.call("POST", "/admin/save-transaction-details", { orderId, merchantName: "Acme" }, admin)).body).toMatchObject({
      status: 0,
      message: "Please enter your Transaction Id",
    });
    expect((await api.call("POST", "/admin/save-transaction-details", { orderId, transactionId: "tx_1" }, admin)).body).toMatchObject({
      status: 0,
      message: "Please enter your Merchant Name",
    });
    const early = await api.call("POST", "/admin/save-transaction-details", { orderId, transactionId: "tx_1", merchantName: "Acme" }, admin);
    expect(early.status).toBe(409);
    await api.call("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: "Completed" }, admin);
    const saved = await api.call("POST", "/admin/save-transaction-details", { orderId, transactionId: "tx_1", merchantName: "Acme" }, admin);
    expect(saved.body).toMatchObject({ status: 1, message: "Transaction details have been saved successfully" });
  });

  it("ADMIN-6: send invoice validates the order id with the spec's messages", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    expect((await api.call("POST", "/admin/send-invoice", {}, team)).body).toMatchObject({ status: 0, message: "Please enter your order id." });
    expect((await api.call("POST", "/admin/send-invoice", { orderId: "" }, team)).body).toMatchObject({ status: 0, message: "Please enter your order id." });
    expect((await api.call("POST", "/admin/send-invoice", { orderId: "12345" }, team)).body).toMatchObject({
      status: 0,
      message: "Order Id must be at least 6 characters.",
    });
    // An invoice names the active gateway of the order's site (ADMIN-2).
    await activateGateway(api);
    const sent = await api.call("POST", "/admin/send-invoice", { orderId }, team);
    expect(sent.body).toMatchObject({ status: 1, message: "Invoice has been sent successfully" });
    expect(await typesOf(api, orderId!)).toEqual(["OrderPlaced", "InvoiceSent"]);
  });

  it("ORDER-2: resending needs a document first", async () => {
    const [orderId] = await api.placeOrders(1);
    const answer = await api.call("POST", "/admin/resend-mail", { orderId, email: "x@example.com", mailServiceProvider: "Sendgrid" }, await api.login("Team"));
    expect(answer).toMatchObject({ status: 409, body: { status: 0, message: `Order ${orderId} has no document to mail yet.` } });
    expect((await api.call("POST", "/admin/resend-mail", { orderId }, await api.login("Team"))).body).toMatchObject({ message: "Please enter your email" });
  });

  it("answers malformed JSON, unknown fields and unknown paths with 4xx envelopes", async () => {
    const team = await api.login("Team");
    const bad = await fetch(`${api.base}/api/admin/add-new-remark`, { method: "POST", headers: { "content-type": "application/json", authorization: team }, body: "{not json" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ status: 0, message: "The request body is not valid JSON.", data: null });
    const extra = await api.call("PUT", "/admin/move-order-status", { orderId: ["100001"], surprise: 1 }, team);
    expect(extra).toMatchObject({ status: 400, body: { status: 0, message: "The field \"surprise\" is not accepted." } });
    expect((await api.call("GET", "/no/such/path", undefined, team)).status).toBe(404);
  });

  it("serves an OpenAPI document listing every command path", async () => {
    const answer = await api.call("GET", "/openapi.json");
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe("3.1.0");
    for (const path of ["/api/admin/admin-login", "/api/admin/change-order-status", "/api/admin/assign-order-status", "/api/admin/add-new-remark", "/api/admin/upload-visa-document", "/api/intake/orders"]) {
      expect(Object.keys(answer.body.paths as object)).toContain(path);
    }
    expect(answer.body.paths["/api/admin/add-new-remark"].post.requestBody.content["application/json"].schema.properties).toHaveProperty("remark");
    // Queries and path parameters are documented from the schemas the server decodes them with.
    const listParameters = answer.body.paths["/api/admin/get-orders-list/{orderName}"].get.parameters as { name: string; in: string }[];
    expect(listParameters.map((p) => `${p.in}:${p.name}`)).toEqual(expect.arrayContaining(["query:page", "query:limit", "query:processMonth"]));
    const detailParameters = answer.body.paths["/api/admin/get-orders-details/{orderId}"].get.parameters as { name: string; in: string; required: boolean }[];
    expect(detailParameters).toEqual([expect.objectContaining({ name: "orderId", in: "path", required: true })]);
  });
});
