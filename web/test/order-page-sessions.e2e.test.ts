import { postgresAvailable } from "@etd/infra/test-database";
import type { HTTPRequest, Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, orderPages, POLL, shownOrder, startE2eApp, type E2eApp, type StaffMember } from "./support/index.ts";

/*
 * The order page with two people on it (issue 11): presence both ways and gone soon after one
 * leaves; a move in one page shows in the other without reload; a stale move is refused with the
 * "changed since you opened it" dialog naming the other's change, and the log is unchanged by it;
 * and QUEUE-12's read-only page for a Team member on someone else's order.
 */

const ready = chromiumAvailable() && (await postgresAvailable());

const standard = () => ({ processing_mode: "standard" as const });


const badges = (page: Page) => page.$$eval(".order-presence-badge", (items) => items.map((b) => b.textContent ?? ""));

const moveButton = (page: Page, label: string) => page.locator(`.order-move-buttons button::-p-text(${label})`);

describe.skipIf(!ready)("the order page with two sessions (issue 11)", () => {
  let app: E2eApp;
  let adminToken: string;
  let maria: StaffMember;
  let tom: StaffMember;
  let tina: StaffMember;

  const historyCount = async (orderId: string) => {
    const answer = await app.api("GET", `/audit/orders/${orderId}/history`, undefined, adminToken);
    expect(answer.status, answer.body.message).toBe(200);
    const data = answer.body.data as unknown[] | { events?: unknown[]; lines?: unknown[] };
    return Array.isArray(data) ? data.length : (data.events ?? data.lines ?? []).length;
  };

  const openOrder = (member: StaffMember, orderId: string, status?: string) => orderPages(app, () => adminToken).open(member, orderId, status);

  beforeAll(async () => {
    app = await startE2eApp();
    adminToken = await app.login(app.admin);
    maria = await app.addStaff("Manager", { name: "Maria Manager" });
    tom = await app.addStaff("Team", { name: "Tom Team" });
    tina = await app.addStaff("Team", { name: "Tina Team" });
  });
  afterEach(async () => {
    await app?.closePages();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("presence: each page shows the other member's badge; a closed page's badge is gone within a few seconds", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    const a = await openOrder(maria, orderId!, "New");
    const b = await openOrder(tom, orderId!, "New");
    await b.waitForFunction(() => document.querySelector(".order-presence")?.textContent?.includes("Maria Manager (Manager)"), POLL);
    await a.bringToFront();
    await a.waitForFunction(() => document.querySelector(".order-presence")?.textContent?.includes("Tom Team (Team)"), POLL);
    expect(await a.$eval(".order-presence", (p) => p.textContent)).toContain("Also viewing:");
    expect(await badges(a)).toEqual(["Tom Team (Team)"]);

    const closedAt = Date.now();
    await a.close({ runBeforeUnload: true });
    await b.bringToFront();
    await b.waitForFunction(() => document.querySelectorAll(".order-presence-badge").length === 0, { ...POLL, timeout: 10_000 });
    expect(Date.now() - closedAt).toBeLessThan(8000);
  });

  it("live: a move in one session shows in the other through the live stream, without reload", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    const a = await openOrder(maria, orderId!, "New");
    const b = await openOrder(tom, orderId!, "New");
    // Both pages know each other first: each is open and reading.
    await b.waitForFunction(() => document.querySelectorAll(".order-presence-badge").length === 1, POLL);
    await b.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await b.waitForSelector('html[data-live="open"]');
    await a.bringToFront();
    await moveButton(a, "Awaiting Govt").click();
    await shownOrder(a, orderId!, "AwaitingGovt");
    const movedAt = Date.now();
    await b.bringToFront();
    // The condition, not a time: how fast it comes is the live benchmark's (P4, npm run bench:live).
    await shownOrder(b, orderId!, "AwaitingGovt", 30_000);
    console.log(`ORDER live: the move showed in the other session ${Date.now() - movedAt} ms after it showed in the first`);
    expect(await b.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it("changed since you opened it: a stale move is refused with a dialog naming the other's change; the log is unchanged; Do it anyway then moves it", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    const a = await openOrder(maria, orderId!, "New");
    const b = await openOrder(tom, orderId!, "New");
    const versionB = await b.$eval(".order-page[data-status]", (el) => (el as HTMLElement).dataset.version);
    // B's page must not learn of A's move before B clicks: its reads of the order are held.
    await b.setRequestInterception(true);
    const holdReads = (request: HTTPRequest) => {
      if (request.url().includes("/api/admin/get-orders-details/")) void request.abort();
      else void request.continue();
    };
    b.on("request", holdReads);

    await a.bringToFront();
    await moveButton(a, "Contact Customer").click();
    await shownOrder(a, orderId!, "ContactCustomer");
    const before = await historyCount(orderId!);

    await b.bringToFront();
    expect(await b.$eval(".order-page[data-status]", (el) => (el as HTMLElement).dataset.version)).toBe(versionB);
    await moveButton(b, "Customer Called").click();
    await b.waitForSelector("[role=alertdialog].order-changed-dialog");
    const dialog = await b.$eval("[role=alertdialog].order-changed-dialog", (el) => el.textContent ?? "");
    expect(dialog).toContain("Changed since you opened it");
    expect(dialog).toContain("This order has changed since you opened it. Nothing was changed; please check and try again.");
    expect(dialog).toContain("Maria Manager");
    expect(dialog).toMatch(/Contact Customer/);
    expect(dialog).toContain("Customer Called");
    // Refused: nothing was written, the order is where A put it.
    expect(await historyCount(orderId!)).toBe(before);
    const status = (await app.api("GET", `/admin/get-orders-details/${orderId}`, undefined, adminToken)).body.data.process_status;
    expect(status).toBe("ContactCustomer");

    // Cancel closes and changes nothing; asked again, Do it anyway sends it with the new version.
    await b.locator("[role=alertdialog] button::-p-text(Cancel)").click();
    await b.waitForFunction(() => !document.querySelector("[role=alertdialog]"), POLL);
    expect(await historyCount(orderId!)).toBe(before);
    await moveButton(b, "Customer Called").click();
    await b.waitForSelector("[role=alertdialog].order-changed-dialog");
    b.off("request", holdReads);
    await b.setRequestInterception(false);
    await b.locator("[role=alertdialog] button::-p-text(Do it anyway)").click();
    await shownOrder(b, orderId!, "CustomerCalled");
    expect(await historyCount(orderId!)).toBe(before + 1);
  });

  it("QUEUE-12: a Team member opening an order assigned to someone else sees every section, read-only", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    const tinaToken = await app.login(tina);
    const assigned = await app.api("PUT", "/admin/assign-order-status", { orderId: [orderId] }, tinaToken);
    expect(assigned.body.status, assigned.body.message).toBe(1);

    const page = await openOrder(tom, orderId!, "Pending");
    await page.waitForSelector(".order-read-only");
    expect(await page.$eval(".order-read-only", (p) => p.textContent)).toBe("Assigned to Tina Team — read only");
    const headings = await page.$$eval(".order-page h2", (hs) => hs.map((h) => h.textContent));
    for (const name of ["Email History", "Upload Document", "Order Details", "Download History", "Comment History"]) expect(headings).toContain(name);
    // No form and no button that changes the order.
    expect(await page.$$eval(".order-page form", (forms) => forms.length)).toBe(0);
    expect(await page.$$eval(".order-page .order-move-buttons, .order-page .order-defence", (els) => els.length)).toBe(0);

    // Her own page, and a Manager's, are not read-only.
    const own = await openOrder(tina, orderId!, "Pending");
    expect(await own.$(".order-read-only")).toBeNull();
    const manager = await openOrder(maria, orderId!, "Pending");
    expect(await manager.$(".order-read-only")).toBeNull();
    expect(await manager.$(".order-move-buttons")).not.toBeNull();
  });
});
