import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, orderPages, POLL, seriousViolations, startE2eApp, TINY_PDF, waitForText, waitForToast, type E2eApp, type StaffMember } from "./support/index.ts";

/*
 * Issue 27 in a real browser against the real API: the order page's "Service level" panel names
 * each segment of the order's clock (what state, from when to when, started by which event and
 * member) and follows the order live; the Service Levels screen sets the policy with the server's
 * messages and shows its versions, read-only to a Manager. Every wait is for what the page shows.
 */

const ready = chromiumAvailable() && (await postgresAvailable());

const RULE = (label: string) => `${label}: the time allowed is a whole number of minutes from 1 to 525600 (a year).`;

/** The panel's segments as the page says them, in order. */
const segments = (page: Page) => page.$$eval("[data-section=service-level] .service-level-segments li", (items) => items.map((li) => li.textContent ?? ""));

const waitForSegments = async (page: Page, states: readonly string[]) => {
  await page.waitForFunction(
    (wanted) => [...document.querySelectorAll<HTMLElement>("[data-section=service-level] .service-level-segments li")].map((li) => li.dataset.state).join() === wanted,
    POLL,
    states.join(),
  );
};

const clear = async (page: Page, selector: string) => {
  await page.click(selector, { count: 3 });
  await page.keyboard.press("Backspace");
};

describe.skipIf(!ready)("issue 27: the why panel and the service-level policy screen", () => {
  let app: E2eApp;
  let adminToken: string;
  let manager: StaffMember;
  let managerToken: string;
  let team: StaffMember;
  /** The order the first test walks through its clock, which the auditor replays after. */
  let walked: string;

  beforeAll(async () => {
    app = await startE2eApp();
    adminToken = await app.login(app.admin);
    manager = await app.addStaff("Manager", { name: "Maria Santos" });
    managerToken = await app.login(manager);
    team = await app.addStaff("Team", { name: "Tom Team" });
  });
  afterEach(async () => {
    await app?.closePages();
  });
  afterAll(async () => {
    await app?.close();
  });

  const setStatus = async (orderId: string, updatingStatus: string) => {
    const answer = await app.api("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus }, managerToken);
    expect(answer.body.status, answer.body.message).toBe(1);
  };

  it("issue 27: the order page's panel names each segment (running, paused in Awaiting Customer, running again, met) with its event and member, live, and axe finds nothing serious", async () => {
    const [orderId] = await app.placeOrders(1, () => ({ processing_mode: "standard" }));
    walked = orderId!;
    const page = await orderPages(app, () => adminToken).open(team, orderId!, "New");
    await waitForSegments(page, ["running"]);
    expect(await page.$eval("[data-section=service-level] h2", (h) => h.textContent)).toBe("Service level");
    expect(await page.$eval("[data-section=service-level] [data-clock-state]", (dd) => dd.textContent)).toBe("Running");
    expect(await page.$eval("[data-section=service-level] .service-level-facts", (dl) => dl.textContent)).toMatch(/Standard, policy version 0 \(the default\)/);
    // The meter is named, and says the same in words.
    expect(await page.$eval("[data-section=service-level] meter", (meter) => meter.labels[0]?.textContent)).toBe("Time used");
    expect(await page.$eval("[data-section=service-level] .service-level-used", (p) => p.textContent)).toMatch(/ used of 24 h allowed$/);
    expect(await page.$eval("[data-section=service-level] .service-level-due", (p) => p.textContent)).toMatch(/^Due \d\d\/\d\d\/\d{4} .+ EST: in 23 h 5\d min\.$/);
    expect(await seriousViolations(page)).toEqual([]);

    // Live: the order waits on the traveller, comes back, and its document is uploaded; the page follows.
    await setStatus(orderId!, "Awaiting");
    await waitForSegments(page, ["running", "paused"]);
    expect(await page.$eval("[data-section=service-level] [data-clock-state]", (dd) => dd.textContent)).toBe("Paused");
    await setStatus(orderId!, "Pending");
    await waitForSegments(page, ["running", "paused", "running"]);
    const form = new FormData();
    form.set("orderId", orderId!);
    form.set("email", "juan.traveller@example.com");
    form.set("uploadVisaDoc", new Blob([TINY_PDF], { type: "application/pdf" }), "visa.pdf");
    const uploaded = await fetch(`${app.base}/api/admin/upload-visa-document`, { method: "POST", headers: { authorization: managerToken }, body: form });
    expect(uploaded.status).toBe(200);
    await waitForSegments(page, ["running", "paused", "running", "met"]);

    const moment = String.raw`\d\d/\d\d/\d{4} \d\d:\d\d:\d\d [AP]M EST`;
    const [placed, paused, resumed, met] = await segments(page);
    expect(placed).toMatch(new RegExp(`^Running from ${moment} to ${moment} \\(less than 1 min counted\\), started by .+: Placed$`));
    expect(paused).toMatch(new RegExp(`^Paused less than 1 min in Awaiting Customer, from ${moment} to ${moment}, started by Maria Santos \\(Manager\\): Status changed$`));
    expect(resumed).toMatch(new RegExp(`^Running from ${moment} to ${moment} \\(less than 1 min counted\\), started by Maria Santos \\(Manager\\): Status changed$`));
    expect(met).toMatch(new RegExp(`^Met at ${moment}, started by Maria Santos \\(Manager\\): Document uploaded$`));
    expect(await page.$eval("[data-section=service-level] [data-clock-state]", (dd) => dd.textContent)).toBe("Met");
    expect(await page.$eval("[data-section=service-level] .service-level-due", (p) => p.textContent)).toBe("Met: the document was uploaded within the time allowed.");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("issue 27, CARD-4: the auditor's replay shows the same panel as of the slider's moment", async () => {
    const page = await app.newPage();
    await app.openSignedIn(page, manager, `/admin/audit/orders/${walked}`);
    await page.waitForSelector(".audit-slider input[type=range]");
    // The first event: the order just paid, its clock running; the next: paused in Awaiting Customer.
    await page.focus(".audit-slider input[type=range]");
    await page.keyboard.press("Home");
    await waitForSegments(page, ["running"]);
    expect(await page.$eval("[data-section=service-level] h3", (h) => h.textContent)).toMatch(/^Service level as of \d\d\/\d\d\/\d{4} .+ EST$/);
    await page.keyboard.press("ArrowRight");
    await waitForSegments(page, ["running", "paused"]);
    expect(await page.$eval("[data-section=service-level] [data-clock-state]", (dd) => dd.textContent)).toBe("Paused");
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("issue 27: an Admin sets the service levels from the menu's Service Levels screen, with the server's messages under the fields; the new version is listed; a Manager reads it without a form", async () => {
    const page = await app.newPage();
    await app.openSignedIn(page, app.admin);
    await page.locator('nav[aria-label="Main menu"] a::-p-text(Service Levels)').click();
    await waitForText(page, "In force: version 0");
    expect(await seriousViolations(page)).toEqual([]);

    await clear(page, "input[name=standard]");
    await page.locator("input[name=standard]").fill("0");
    await page.locator("button::-p-text(Save service levels)").click();
    await waitForText(page, RULE("Standard"));
    // Changed, the field's message goes; a whole number too many minutes is told the same rule.
    await clear(page, "input[name=standard]");
    await page.locator("input[name=standard]").fill("600");
    await clear(page, "input[name=future]");
    await page.locator("input[name=future]").fill("525601");
    await page.locator("button::-p-text(Save service levels)").click();
    await waitForText(page, RULE("Future orders"));
    expect(await page.$$eval(".field-error", (errors) => errors.map((e) => e.textContent).filter(Boolean))).toEqual([RULE("Future orders")]);

    await clear(page, "input[name=future]");
    await page.locator("input[name=future]").fill("600");
    await page.locator("button::-p-text(Save service levels)").click();
    await waitForToast(page, "success", "The service levels have been saved. They apply to orders paid from now on.");
    await waitForText(page, "In force: version 1");
    const rows = await page.$$eval("table[aria-labelledby=service-levels-versions] tbody tr", (trs) =>
      trs.map((tr) => [...tr.children].map((cell) => cell.textContent ?? "")),
    );
    expect(rows.map((row) => row.slice(0, 5))).toEqual([
      ["1", "600 min (10 h)", "240 min (4 h)", "600 min (10 h)", `${app.admin.name} (Admin)`],
      ["0", "1440 min (24 h)", "240 min (4 h)", "1440 min (24 h)", "No one (the default)"],
    ]);

    const managerPage = await app.newPage();
    await app.openSignedIn(managerPage, manager, "/admin/service-levels");
    await waitForText(managerPage, "In force: version 1");
    await waitForText(managerPage, "Only an Admin can change the service levels.");
    expect(await managerPage.$("input[name=standard]")).toBeNull();
    expect(await seriousViolations(managerPage)).toEqual([]);
  });
});
