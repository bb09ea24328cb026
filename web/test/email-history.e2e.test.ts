import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, orderPages, POLL, TINY_PDF, seriousViolations, startE2eApp, type E2eApp, type StaffMember } from "./support/index.ts";

/*
 * Email History with each mail's state, in a real browser against the real API and its mail
 * reactor (issue 12, ORDER-2, ORDER-12). The e2e server has no provider credentials, so mail goes
 * to the outbox: staff must see that it did not reach the customer. The page is open before the
 * upload, so what it shows arrives through the live feed (the mail's own stream included).
 */

const ready = chromiumAvailable() && (await postgresAvailable());

describe.skipIf(!ready)("Email History's mail states (issue 12, ORDER-2)", () => {
  let app: E2eApp;
  let adminToken: string;
  let manager: StaffMember;

  beforeAll(async () => {
    app = await startE2eApp();
    adminToken = await app.login(app.admin);
    manager = await app.addStaff("Manager", { name: "Maria Manager" });
  });
  afterEach(async () => {
    await app?.closePages();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("ORDER-2, ORDER-12: an upload's mail shows live as Sent via the outbox, with no warning and no Retry; View shows its content", async () => {
    const [orderId] = await app.placeOrders(1, () => ({ processing_mode: "standard" }));
    const page = await orderPages(app, () => adminToken).open(manager, orderId!, "New");
    await page.waitForSelector(".order-email-history .table-empty");

    const form = new FormData();
    form.set("orderId", orderId!);
    form.set("email", "traveller.copy@example.com");
    form.set("uploadVisaDoc", new Blob([TINY_PDF], { type: "application/pdf" }), "visa.pdf");
    const uploaded = await fetch(`${app.base}/api/admin/upload-visa-document`, { method: "POST", headers: { authorization: adminToken }, body: form });
    expect(uploaded.status).toBe(200);

    // No reload: the mail's own events move the row through the live feed.
    await page.waitForFunction(() => document.querySelector(".order-email-history tbody tr")?.getAttribute("data-mail-status") === "sent", { ...POLL, timeout: 20_000 });
    const state = await page.$eval(".order-email-history tbody tr .order-mail-state", (td) => td.textContent ?? "");
    expect(state).toBe("Sentvia outbox — not sent to the customer");
    expect(await page.$(".order-mail-banner")).toBeNull();
    expect(await page.$$eval(".order-email-history tbody tr button", (buttons) => buttons.map((b) => b.textContent))).toEqual(["View"]);
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator(".order-email-history tbody tr button::-p-text(View)").click();
    // The mail's HTML is shown in a frame that runs no script and cannot reach the page.
    const frame = await page.waitForSelector("[role=dialog] .order-mail-frame");
    expect(await frame!.evaluate((f) => f.getAttribute("sandbox"))).toBe("");
    expect(await page.$eval("[role=dialog] .order-mail-headers", (dl) => dl.textContent)).toContain("traveller.copy@example.com");
    expect(await page.$("[role=dialog] a::-p-text(Send Whatsapp Message)")).not.toBeNull();
    await page.locator("[role=dialog] button::-p-text(Close)").click();
    await page.waitForFunction(() => !document.querySelector("[role=dialog]"), POLL);
  });
});
