import { readdir } from "node:fs/promises";
import path from "node:path";
import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orderEmail, settleOrder, trackOrder } from "./support/public-visitor.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";

const available = await postgresAvailable();

const PDF = Buffer.from("%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n");
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]);

const listFiles = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
};

describe.skipIf(!available)("documents: upload, mail request and the traveller's download", () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startTestApi();
  });

  afterAll(async () => {
    await api?.close();
  });

  const upload = async (fields: Record<string, string>, file: { name: string; content: Buffer } | undefined, token: string) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    if (file) form.append("uploadVisaDoc", new Blob([new Uint8Array(file.content)]), file.name);
    const response = await fetch(`${api.base}/api/admin/upload-visa-document`, { method: "POST", body: form, headers: { authorization: token } });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it("ORDER-3: the form's messages, and a PDF stored under docs/{orderId}/ with a DocumentUploaded event", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    expect(await upload({ orderId: orderId! }, { name: "visa.pdf", content: PDF }, team)).toMatchObject({ status: 400, body: { status: 0, message: "Please enter your email" } });
    expect(await upload({ orderId: orderId!, email: "juan@example.com" }, undefined, team)).toMatchObject({ status: 400, body: { status: 0, message: "File is required" } });

    const stored = await upload({ orderId: orderId!, email: "juan@example.com", mailServiceProvider: "Sendgrid" }, { name: "E-Travel Juan.pdf", content: PDF }, team);
    expect(stored.body).toMatchObject({ status: 1, message: "Document has been uploaded successfully and the mail is on its way" });
    const events = await api.runtime.deps.store.readStream(`order-${orderId}`);
    expect(events.at(-1)!.type).toBe("DocumentUploaded");
    expect(events.at(-1)!.data).toMatchObject({
      // Issue 25: the name and path are sealed with the address (the store hands them back opened).
      personal: { to: "juan@example.com", fileName: "E-Travel Juan.pdf", storedPath: `docs/${orderId}/E-Travel Juan.pdf` },
      contentType: "application/pdf",
      provider: "Sendgrid",
      uploadedBy: { id: api.staff.Team.id, name: "Tessa Cruz" },
    });
    expect(await listFiles(path.join(api.dataDir, "uploads", "docs"))).toEqual([path.join(api.dataDir, "uploads", "docs", orderId!, "E-Travel Juan.pdf")]);
  });

  it("R7: oversized, disguised and traversal-named uploads get a 4xx and nothing lands outside the storage folder", async () => {
    const [orderId] = await api.placeOrders(1);
    const team = await api.login("Team");
    const fields = { orderId: orderId!, email: "juan@example.com" };
    const before = await api.runtime.deps.store.readStream(`order-${orderId}`);

    const oversized = await upload(fields, { name: "big.pdf", content: Buffer.concat([PDF, Buffer.alloc(1024 * 1024)]) }, team);
    expect(oversized).toMatchObject({ status: 413, body: { status: 0, message: "The file is larger than the 1 MB limit." } });
    const disguised = await upload(fields, { name: "visa.pdf", content: ELF }, team);
    expect(disguised).toMatchObject({ status: 415, body: { status: 0, message: "Only PDF or image files can be uploaded." } });
    const badOrder = await upload({ ...fields, orderId: "../../etc" }, { name: "x.pdf", content: PDF }, team);
    expect(badOrder.status).toBe(400);
    expect(await api.runtime.deps.store.readStream(`order-${orderId}`)).toHaveLength(before.length);

    for (const name of ["../../../escape.pdf", "..\\..\\escape.pdf", "/etc/escape.pdf", "%2e%2e%2fescape.pdf"]) {
      const answer = await upload(fields, { name, content: PDF }, team);
      expect(answer.status, name).toBe(200);
    }
    const root = path.join(api.dataDir, "uploads");
    // The outbox holds the mails these uploads asked for (no provider is configured): the mail
    // reactor's files, named by Message-ID, not by anything the uploader sent.
    const everything = (await listFiles(api.dataDir)).filter((file) => !file.startsWith(path.join(api.dataDir, "outbox") + path.sep));
    for (const file of everything) expect(file.startsWith(path.join(root, "docs") + path.sep), file).toBe(true);
    expect(everything.filter((file) => file.startsWith(path.join(root, "docs", orderId!) + path.sep))).toHaveLength(4);
  });

  it("an upload for an order that does not exist is refused and leaves no file behind", async () => {
    const answer = await upload({ orderId: "9000000001", email: "a@example.com" }, { name: "x.pdf", content: PDF }, await api.login("Team"));
    expect(answer).toMatchObject({ status: 404, body: { status: 0, message: "Order 9000000001 was not found." } });
    expect((await listFiles(api.dataDir)).filter((file) => file.includes("9000000001"))).toEqual([]);
  });

  it("PUBLIC-1: the track form's messages; a wrong id and a wrong e-mail get the same answer", async () => {
    const [orderId] = await api.placeOrders(1);
    const email = await orderEmail(api, orderId!);
    // The tracker reads the order details read model.
    await settleOrder(api, orderId!);
    expect(await api.call("POST", "/front/track-order", { email })).toMatchObject({ status: 400, body: { status: 0, message: "Please enter your orderId" } });
    expect(await api.call("POST", "/front/track-order", { orderId, email: "" })).toMatchObject({ status: 400, body: { status: 0, message: "Please enter your email" } });

    const wrongEmail = await api.call("POST", "/front/track-order", { orderId, email: "someone@example.com" });
    const wrongId = await api.call("POST", "/front/track-order", { orderId: "999999999", email });
    expect(wrongEmail).toEqual({ status: 404, body: { status: 0, message: "We could not find an order with this Order ID and Email ID.", data: null } });
    expect(wrongId).toEqual(wrongEmail);
    const found = await api.call("POST", "/front/track-order", { orderId, email: email.toUpperCase() });
    expect(found.body).toMatchObject({ status: 1, data: { orderId, documentReady: false } });
  });

  it("PUBLIC-2: with the order's grant, a download of the current document is recorded with the device; another file name is refused", async () => {
    const [orderId] = await api.placeOrders(1);
    await upload({ orderId: orderId!, email: "juan@example.com" }, { name: "etravel.pdf", content: PDF }, await api.login("Team"));
    const download = (body: unknown, cookie?: string) =>
      fetch(`${api.base}/api/front/download-passport-doc-pdf`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
    // Without the grant track-order gives, nothing is recorded (issue 9 item 4).
    const ungranted = await download({ orderId, customername: "Juan", file1: "etravel.pdf" });
    expect(ungranted.status).toBe(403);
    expect(await ungranted.json()).toEqual({ status: 0, message: "Please track your order with its Order ID and Email ID first.", data: null });
    const cookie = await trackOrder(api, orderId!);
    const wrong = await download({ orderId, customername: "Juan", file1: "other.pdf" }, cookie);
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toMatchObject({ status: 0, message: "The document was not found." });
    expect((await api.runtime.deps.store.readStream(`order-${orderId}`)).at(-1)!.type).not.toBe("DocumentDownloaded");
    const response = await fetch(`${api.base}/api/front/download-passport-doc-pdf`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, "user-agent": "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1" },
      body: JSON.stringify({ orderId, customername: "Juan", file1: "etravel.pdf" }),
    });
    expect(await response.json()).toMatchObject({ status: 1, data: { link: `/uploads/docs/${orderId}/etravel.pdf` } });
    const downloaded = (await api.runtime.deps.store.readStream(`order-${orderId}`)).at(-1)!;
    expect(downloaded.type).toBe("DocumentDownloaded");
    expect(downloaded.data).toMatchObject({ personal: { fileName: "etravel.pdf", browser: "Safari-17", os: "iOS 17.0", deviceType: "Mobile", device: "Apple iPhone" } });
    expect(downloaded.metadata).toMatchObject({ actor: { kind: "customer" } });
    // ORDER-14, issue 9 item 12: the link answered is the file, for the same grant.
    const file = await fetch(`${api.base}/uploads/docs/${orderId}/etravel.pdf`, { headers: { cookie } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
  });
});
