import { randomUUID } from "node:crypto";
import { postgresAvailable } from "@etd/infra/test-database";
import { orderDetails } from "@etd/projections";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defencePackEvidence } from "@etd/documents";
import { ERASURE_REACTOR } from "@etd/reactors";
import { waitForReactor } from "./support/reactors.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();
const PDF = Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");

/*
 * Security review (ADR 0004, 0009; ORDER-10): staff quote phone and passport numbers in remarks,
 * and name uploads after the traveller. After a permanent delete, neither the order page
 * (get-orders-details), the auditors' replay (history, as-of) nor the defence pack evidence may
 * still show them. Two remarks: one written now (RemarkAdded version 3, text sealed), and one
 * stored as version 2 before the fix (text in the clear in the log, which nothing can seal).
 */
const NEW_REMARK = "Customer Liza phone +63 9171234567 said passport P1234567";
const OLD_REMARK = "Old note: Liza's passport P7654321, call +63 9170000000";
const SECRETS = ["9171234567", "P1234567", "P7654321", "9170000000", "passport_Liza"];

describe.skipIf(!available)("security review: remark text and file names after a permanent delete (ORDER-10, DESIGN §3)", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  const read = async (apiPath: string, token: string, orderId: string) => (await api.readCaughtUp(apiPath, token, orderId)).body;
  const leaks = (value: unknown) => SECRETS.filter((secret) => JSON.stringify(value).includes(secret));

  it("shows both remarks and the file name while the key exists, and none of them once erased", async () => {
    const [orderId] = await api.placeOrders(1);
    const admin = await api.login("Admin");
    const manager = await api.login("Manager");
    const staff = api.staff.Admin;

    expect((await api.call("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, admin)).body.status).toBe(1);
    expect((await api.call("POST", "/admin/add-new-remark", { orderId, remark: NEW_REMARK, whatsapp: "Y" }, admin)).body.status).toBe(1);
    // A remark as the code before the fix stored it: version 2, the text beside the flags.
    await api.runtime.deps.store.append(
      `order-${orderId}`,
      [
        {
          eventId: randomUUID(),
          type: "RemarkAdded",
          schemaVersion: 2,
          data: { orderId: orderId!, remark: OLD_REMARK, remarkerName: staff.name, whatsapp: false, telephone: true, statusRefund: false, voided: false, chargeBack: false, reportError: false },
          metadata: { actor: { kind: "staff", id: staff.id, name: staff.name, role: "Admin" }, correlationId: randomUUID(), occurredAt: new Date().toISOString() },
        },
      ],
      { expectedVersion: "any" },
    );
    const form = new FormData();
    form.append("orderId", orderId!);
    form.append("email", "liza@example.com");
    form.append("uploadVisaDoc", new Blob([new Uint8Array(PDF)]), "passport_Liza.pdf");
    const uploaded = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: admin } });
    expect(((await uploaded.json()) as { status: number }).status).toBe(1);

    // Before: everything is there, so the checks below can fail.
    const before = (await read(`/admin/get-orders-details/${orderId}`, admin, orderId!)).data;
    expect(before.remark.map((r: { remark: string }) => r.remark)).toEqual([NEW_REMARK, OLD_REMARK]);
    expect(leaks(before)).toEqual(SECRETS);
    const asOfBefore = (await api.call("GET", `/audit/orders/${orderId}/as-of?at=${new Date().toISOString()}`, undefined, manager)).body.data;
    expect(asOfBefore.remarks.map((r: { remark: string }) => r.remark)).toEqual([NEW_REMARK, OLD_REMARK]);

    const erased = await api.call("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: "Deleted", permanentDeletedFlag: true }, admin);
    expect(erased.body).toMatchObject({ status: 1 });
    await waitForReactor(api.runtime.driver, ERASURE_REACTOR, erased.body.data.position as string);

    // The order page: the comments stay (who, when, flags) with their text blanked to "".
    const after = (await read(`/admin/get-orders-details/${orderId}`, admin, orderId!)).data;
    expect(after.personal_data_erased).toBe(true);
    expect(after.remark.map((r: { remark: string; remark_name: string; whatsapp: string; telephone: string }) => [r.remark, r.remark_name, r.whatsapp, r.telephone])).toEqual([
      ["", staff.name, "Y", "N"],
      ["", staff.name, "N", "Y"],
    ]);
    expect(leaks(after)).toEqual([]);

    // The auditors' replay of the log, at a moment before the delete and now.
    for (const at of [asOfBefore.asOf as string, new Date().toISOString()]) {
      const asOf = (await api.call("GET", `/audit/orders/${orderId}/as-of?at=${at}`, undefined, manager)).body.data;
      expect(asOf.remarks.map((r: { remark: string; flags: string[] }) => [r.remark, r.flags])).toEqual([
        ["", ["whatsapp"]],
        ["", ["telephone"]],
      ]);
      expect(leaks(asOf.remarks)).toEqual([]);
    }
    const history = (await api.call("GET", `/audit/orders/${orderId}/history`, undefined, manager)).body.data;
    expect(history.filter((e: { type: string }) => e.type === "RemarkAdded")).toHaveLength(2);
    expect(leaks(history.filter((e: { type: string }) => e.type === "RemarkAdded"))).toEqual([]);

    // The defence pack evidence, built from the same read model.
    const details = await orderDetails(api.runtime.deps.readDb.query, orderId!);
    const evidence = defencePackEvidence(details!);
    expect(evidence.comments.map((c) => c.remark)).toEqual(["", ""]);
    expect(leaks(evidence)).toEqual([]);
  });
});
