import { once } from "node:events";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { BRANDS, TRACKER_LOOK } from "@etd/contract";
import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, currentPath, fillTrackField, headerBrand, POLL, seriousViolations, startE2eApp, TINY_PDF, trackOrder, waitForPath, waitForText, waitForToast, type E2eApp } from "./support/index.ts";

/*
 * Issue 13 in a real browser against the real API and PostgreSQL: the traveller's pages
 * (PUBLIC-1 track, PUBLIC-2 download and history, PUBLIC-3 brands and the translation widget) and
 * R8 as a visitor meets it (a wrong pair refused with the server's message, the download page
 * showing nothing of an order without its grant). The API side of R8 (identical answers for a
 * wrong id and a wrong e-mail, bursts throttled) is services/server/test/public.int.test.ts.
 */

const ready = chromiumAvailable() && (await postgresAvailable());
if (!ready) console.warn("public tracker e2e skipped: needs Chromium and PostgreSQL");

/** The test's browser: Firefox 133 on Windows 10, so the history's Browser and OS come from it. */
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

const NOT_FOUND = "We could not find an order with this Order ID and Email ID.";

const fieldValue = (page: Page, id: string) => page.$eval(`#${id}`, (input) => (input as HTMLInputElement).value);
const fieldErrors = (page: Page) => page.$$eval(".public-field-error", (items) => items.map((item) => item.textContent));
const footerText = (page: Page) => page.$eval(".public-footer", (el) => el.textContent ?? "");
const historyRows = (page: Page) => page.$$eval(".public-table tbody tr", (rows) => rows.map((row) => [...row.querySelectorAll("td")].map((td) => td.textContent ?? "")));

describe.skipIf(!ready)("the traveller's tracker (issue 13: PUBLIC-1, PUBLIC-2, PUBLIC-3, R8)", () => {
  let app: E2eApp;
  let adminToken: string;
  /** A: primary brand, a document uploaded. B: secondary brand, no document yet. */
  let A: { orderId: string; email: string; firstName: string };
  let B: { orderId: string; email: string; firstName: string };
  let downloads: string;

  beforeAll(async () => {
    app = await startE2eApp();
    adminToken = await app.login(app.admin);
    const emails = ["ana.traveller@example.com", "ben.traveller@example.com"];
    const firstNames = ["Analyn", "Benigno"];
    const [a, b] = await app.placeOrders(2, (_body, index) => ({
      email: emails[index]!,
      confirm_email: emails[index]!,
      first_name: firstNames[index]!,
      landing_domain: index === 0 ? "primary" : "secondary",
    }));
    A = { orderId: a!, email: emails[0]!, firstName: firstNames[0]! };
    B = { orderId: b!, email: emails[1]!, firstName: firstNames[1]! };
    const form = new FormData();
    form.set("orderId", A.orderId);
    form.set("email", A.email);
    form.set("uploadVisaDoc", new Blob([TINY_PDF], { type: "application/pdf" }), "e-travel.pdf");
    const uploaded = await fetch(`${app.base}/api/admin/upload-visa-document`, { method: "POST", headers: { authorization: adminToken }, body: form });
    expect(uploaded.status).toBe(200);
    downloads = await mkdtemp(path.join(tmpdir(), "etd-downloads-"));
  }, 120_000);
  afterEach(async () => {
    await app?.closePages();
  });
  afterAll(async () => {
    await app?.close();
    if (downloads) await rm(downloads, { recursive: true, force: true });
  });

  /** What the browser reported breaking the Content-Security-Policy, on every page opened here. */
  const cspViolations: string[] = [];

  const openTrack = async (orderId: string): Promise<Page> => {
    const page = await app.newPage();
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.setUserAgent({ userAgent: FIREFOX_ON_WINDOWS });
    await page.goto(`${app.base}/track-order/${orderId}`);
    await page.waitForSelector("#track-orderId");
    return page;
  };

  it("PUBLIC-1: the track page prefills the order ID, says what is missing, and shows the server's refusal of a wrong pair", async () => {
    const page = await openTrack(A.orderId);
    expect(await page.$eval("h1", (h) => h.textContent)).toBe("Download your Philippines E-Travel");
    expect(await fieldValue(page, "track-orderId")).toBe(A.orderId);
    expect(await page.$eval("#track-email", (input) => (input as HTMLInputElement).type)).toBe("email");
    expect(await page.$eval("button[type=submit]", (b) => b.textContent)).toBe("TRACK ORDER");
    expect(await page.$eval(".public-support a", (a) => [a.textContent, a.getAttribute("href")])).toEqual(["Contact Support", `mailto:${TRACKER_LOOK.supportEmail}`]);
    // Before the pair matches, the page wears the neutral look: no brand says whether the id exists.
    expect(await headerBrand(page)).toBe(TRACKER_LOOK.name);
    // No widget is configured here: no container, no third-party script.
    expect(await page.$("#translate-widget")).toBeNull();
    expect(await page.$$eval("script[src]", (scripts) => scripts.every((s) => (s).src.startsWith(location.origin)))).toBe(true);

    await page.locator("button[type=submit]").click();
    expect(await fieldErrors(page)).toEqual(["Please enter your email"]);
    await fillTrackField(page, "track-orderId", " ");
    await page.locator("button[type=submit]").click();
    expect(await fieldErrors(page)).toEqual(["Please enter your orderId", "Please enter your email"]);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("track-orderId");
    expect(await page.$eval("#track-orderId", (input) => input.getAttribute("aria-invalid"))).toBe("true");

    // R8 as the visitor sees it: a wrong e-mail and a wrong id get the same message.
    await trackOrder(page, A.orderId, "someone.else@example.com");
    await waitForToast(page, "error", NOT_FOUND);
    expect(await fieldErrors(page)).toEqual([]);
    // The second refusal replaces the first: errors answered by a later attempt do not stack up.
    await page.$eval(".toaster .toast-error", (toast) => toast.setAttribute("data-first", ""));
    await trackOrder(page, "399999", A.email);
    await page.waitForFunction(() => document.querySelector(".toaster [data-first]") === null && document.querySelector(".toaster .toast-error") !== null, POLL);
    expect(await page.$$eval(".toaster .toast-error span", (spans) => spans.map((s) => s.textContent))).toEqual([NOT_FOUND]);
    expect(await currentPath(page)).toBe("/track-order/" + A.orderId);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("PUBLIC-1, PUBLIC-2: the right pair opens the download page; Download Now records the download, lists it with the browser's details, and the file arrives", async () => {
    const page = await openTrack(A.orderId);
    // Downloads are the browser's business: allowed into a folder for this page's context, with events.
    const cdp = await app.browser.target().createCDPSession();
    await cdp.send("Browser.setDownloadBehavior", { behavior: "allow", downloadPath: downloads, eventsEnabled: true, browserContextId: page.browserContext().id });

    // A mistyped e-mail first: its error does not follow the traveller onto the download page.
    await trackOrder(page, A.orderId, "a.typo@example.com");
    await waitForToast(page, "error", NOT_FOUND);
    await trackOrder(page, A.orderId.padStart(A.orderId.length + 1, " "), A.email.toUpperCase());
    await waitForToast(page, "success", "Your order has been found.");
    await waitForPath(page, `/get-new-order-details/${A.orderId}`);
    expect(await page.$$eval(".toaster .toast", (toasts) => toasts.map((t) => t.querySelector("span")?.textContent))).toEqual(["Your order has been found."]);
    await waitForText(page, "Your application for an Electronic Travel Declaration has been completed successfully.");
    expect(await page.$eval("h1", (h) => h.textContent)).toBe(`Thank you, ${A.firstName}`);
    expect(await page.$$eval(".public-table th", (ths) => ths.map((th) => th.textContent))).toEqual([
      "#", "Order ID", "Date and Time (EST)", "Device IP Address", "Device", "Device Type", "Browser", "OS", "Device Location",
    ]);
    expect(await historyRows(page)).toEqual([["No record found"]]);
    // PUBLIC-3: the order's brand, primary.
    expect(await headerBrand(page)).toBe(BRANDS.primary.name);
    expect(await footerText(page)).toContain(`© 2025 ${BRANDS.primary.name}. All rights reserved.`);
    expect(await page.$$eval(".public-nav a", (links) => links.map((a) => a.getAttribute("href")))).toEqual([
      "/track-order",
      ...BRANDS.primary.navigation.map((link) => link.href),
      `mailto:${BRANDS.primary.supportEmail}`,
    ]);
    expect(await page.$eval(".public-attribution a", (a) => a.getAttribute("href"))).toBe("https://db-ip.com");
    expect(await seriousViolations(page)).toEqual([]);

    const button = page.locator("button.public-button");
    expect(await page.$eval("button.public-button", (b) => [b.textContent, (b).disabled])).toEqual(["Download Now", false]);
    const downloaded = new Promise<string>((resolve) => {
      cdp.on("Browser.downloadProgress", (event) => {
        if (event.state === "completed") resolve(event.guid);
      });
    });
    await button.click();
    await waitForToast(page, "success", "Your download will start shortly.");
    // The history reloads with the new row before the file starts.
    await page.waitForFunction(() => document.querySelectorAll(".public-table tbody tr td").length > 1, POLL);
    const [row] = await historyRows(page);
    expect(row).toEqual([
      "1",
      A.orderId,
      expect.stringMatching(/^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d [AP]M EST$/),
      "127.0.0.xxx",
      "Computer",
      "Desktop",
      "Firefox-133",
      "Windows 10",
      // A loopback address has no country.
      "Unknown",
    ]);

    // The browser's own download: the file as uploaded.
    const guid = await downloaded;
    const files = await readdir(downloads);
    const file = files.find((name) => name === guid || name === "e-travel.pdf");
    expect(file, `downloaded: ${files.join(", ")}`).toBeDefined();
    expect((await readFile(path.join(downloads, file!))).toString("latin1")).toBe(TINY_PDF);
    expect(cspViolations).toEqual([]);
  });

  it("PUBLIC-2, PUBLIC-3: an order of the other brand wears its own header and footer; Download Now waits for a document", async () => {
    const page = await openTrack(B.orderId);
    await trackOrder(page, B.orderId, B.email);
    await waitForPath(page, `/get-new-order-details/${B.orderId}`);
    await waitForText(page, "Your document is being prepared. Download Now becomes available as soon as it is ready, and we will e-mail you as well.");
    expect(await headerBrand(page)).toBe(BRANDS.secondary.name);
    expect(await footerText(page)).toContain(`© 2025 ${BRANDS.secondary.name}. All rights reserved.`);
    expect(await page.$$eval(".public-footer-links a", (links) => links.map((a) => a.getAttribute("href")))).toEqual(BRANDS.secondary.footerLinks.map((link) => link.href));
    expect(await page.$eval(".public-header", (el) => getComputedStyle(el).backgroundColor)).toBe("rgb(138, 21, 56)");
    expect(await page.$eval("button.public-button", (b) => (b).disabled)).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("R8: the download page without a grant, or with another order's, shows nothing of the order and goes back to tracking", async () => {
    const history: number[] = [];
    const watch = (page: Page) =>
      page.on("response", (response) => {
        if (response.url().endsWith("/api/front/get-download-history")) history.push(response.status());
      });

    const stranger = await app.newPage();
    watch(stranger);
    await stranger.goto(`${app.base}/get-new-order-details/${A.orderId}`);
    await waitForPath(stranger, `/track-order/${A.orderId}`);
    await stranger.waitForSelector("#track-orderId");
    const strangerText = await stranger.evaluate(() => document.body.innerText);
    expect(strangerText).not.toContain(A.firstName);
    expect(strangerText).not.toContain("e-travel.pdf");
    expect(await headerBrand(stranger)).toBe(TRACKER_LOOK.name);

    // B's grant does not open A.
    const other = await openTrack(B.orderId);
    watch(other);
    await trackOrder(other, B.orderId, B.email);
    await waitForPath(other, `/get-new-order-details/${B.orderId}`);
    // B's own page has loaded (its history answered) before A is tried.
    await other.waitForFunction((name) => document.querySelector(".public-brand")?.textContent === name, POLL, BRANDS.secondary.name);
    await other.goto(`${app.base}/get-new-order-details/${A.orderId}`);
    await waitForPath(other, `/track-order/${A.orderId}`);
    const otherText = await other.evaluate(() => document.body.innerText);
    expect(otherText).not.toContain(A.firstName);
    expect(await headerBrand(other)).toBe(TRACKER_LOOK.name);
    expect(history).toEqual([403, 200, 403]);
  });
});

describe.skipIf(!ready)("the translation widget loads only when configured (issue 13, PUBLIC-3)", () => {
  let widgetServer: Server;
  let widgetOrigin: string;
  let requested = 0;
  let app: E2eApp;

  beforeAll(async () => {
    // The third party: a script that writes into the container the page gives it.
    widgetServer = createServer((_req, res) => {
      requested += 1;
      res.writeHead(200, { "content-type": "text/javascript" }).end(`document.getElementById("translate-widget").textContent = "Select Language";`);
    });
    widgetServer.listen(0, "127.0.0.1");
    await once(widgetServer, "listening");
    widgetOrigin = `http://127.0.0.1:${(widgetServer.address() as AddressInfo).port}`;
    app = await startE2eApp({ settings: { TRANSLATE_WIDGET_URL: `${widgetOrigin}/element.js` } });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    if (widgetServer) await new Promise((resolve) => widgetServer.close(resolve));
  });

  it("a configured widget is allowed by the public pages' policy and shows in the header; the console's policy stays closed", async () => {
    const page = await app.newPage();
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const answer = await page.goto(`${app.base}/track-order/100001`);
    expect(answer?.headers()["content-security-policy"]).toContain(`script-src 'self' ${widgetOrigin}`);
    await page.waitForFunction(() => document.getElementById("translate-widget")?.textContent === "Select Language", POLL);
    expect(requested).toBe(1);
    expect(violations).toEqual([]);
    const console = await fetch(`${app.base}/admin`);
    expect(console.headers.get("content-security-policy")).not.toContain(widgetOrigin);
    await app.closePages();
  });
});
