import { BRANDS, TRACKER_LOOK, type LandingDomain, type Look } from "@etd/contract";
import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  chromiumAvailable,
  headerBrand,
  POLL,
  prepareTraveller,
  setInputValue,
  startE2eApp,
  trackOrder,
  waitForPath,
  waitForToast,
  wcagViolations,
  type E2eApp,
  type ReadyOrder,
  type Traveller,
} from "./support/index.ts";

/*
 * Issue 29: the traveller's pages as a traveller opens them from the mail on a phone, in Chromium
 * at 320, 360, 390 and 414 px wide, for both brands: every navigation link reachable (directly or
 * through the Menu button), nothing scrolling sideways, the Downloaded History as blocks of
 * labelled values, the toast clear of the brand's name and the form; and WCAG 2.2 AA (axe's
 * rules, targets of 24x24 px, focus never hidden, paste and autofill in the track form). The
 * Lighthouse scores are lighthouse.e2e.test.ts's.
 */

const ready = chromiumAvailable() && (await postgresAvailable());
if (!ready) console.warn("public phone e2e skipped: needs Chromium and PostgreSQL");

/** The widths the issue names, each with a phone's height (iPhone SE, Galaxy S, iPhone 14, iPhone Plus). */
const PHONES = [
  { width: 320, height: 568 },
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 414, height: 896 },
] as const;

const LAPTOP = { width: 1280, height: 800 } as const;

const TRAVELLERS: Record<LandingDomain, Traveller> = {
  primary: { email: "pia.phone@example.com", firstName: "Pia", landingDomain: "primary" },
  secondary: { email: "sol.phone@example.com", firstName: "Sol", landingDomain: "secondary" },
};

const FOUND = "Your order has been found.";
const NOT_FOUND = "We could not find an order with this Order ID and Email ID.";

/** The navigation's labels for a look, in order. */
const navigationLabels = (look: Look) => ["Track Order", ...look.navigation.map((link) => link.label), "Contact Us"];

interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

const box = (page: Page, selector: string): Promise<Box> =>
  page.$eval(selector, (el) => {
    const { left, top, right, bottom } = el.getBoundingClientRect();
    return { left, top, right, bottom };
  });

const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * What scrolls sideways or reaches past the screen's sides: the document, any element whose
 * content is wider than its box (a scrolling wrapper, or content cut off), any element sticking
 * out. Visually hidden elements (1 px boxes for screen readers) are left out.
 */
const sidewaysOverflow = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${[...el.classList].map((c) => `.${c}`).join("")}`;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width) found.push(`the document is ${document.documentElement.scrollWidth} px wide on a ${width} px screen`);
    const visuallyHidden = (el: Element) => {
      for (let at: Element | null = el; at; at = at.parentElement) {
        const rect = at.getBoundingClientRect();
        if ((rect.width <= 1 || rect.height <= 1) && getComputedStyle(at).overflow !== "visible") return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll("*")) {
      const rect = el.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1 || visuallyHidden(el)) continue;
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && getComputedStyle(el).overflowX !== "visible") found.push(`${name(el)} needs ${el.scrollWidth} px in ${el.clientWidth} px`);
      if (rect.left < -0.5 || rect.right > width + 0.5) found.push(`${name(el)} spans ${Math.round(rect.left)}..${Math.round(rect.right)} px`);
    }
    return found;
  });

/**
 * The navigation's links a visitor can reach on screen: through the Menu button when it shows
 * (opened here), else directly. A link counts when it lies within the screen's width and is the
 * element on top at its centre once scrolled to.
 */
const reachableNavigation = async (page: Page): Promise<{ throughMenu: boolean; labels: string[] }> => {
  const throughMenu = await page.$eval(".public-menu-button", (button) => button.getClientRects().length > 0);
  if (throughMenu) {
    expect(await page.$eval(".public-menu-button", (button) => [button.textContent?.trim(), button.getAttribute("aria-expanded")])).toEqual(["Menu", "false"]);
    await page.locator(".public-menu-button").click();
    await page.waitForFunction(() => document.querySelector(".public-menu-button")?.getAttribute("aria-expanded") === "true", POLL);
  }
  const labels = await page.$$eval(".public-nav a", (links) =>
    links
      .filter((link) => {
        link.scrollIntoView({ block: "nearest" });
        const rect = link.getBoundingClientRect();
        if (rect.width === 0 || rect.left < 0 || rect.right > document.documentElement.clientWidth) return false;
        const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        return hit !== null && link.contains(hit);
      })
      .map((link) => link.textContent ?? ""),
  );
  return { throughMenu, labels };
};

/** The size of every target outside running text: the navigation, the buttons, the footer's links, a toast's close button. */
const targetSizes = (page: Page): Promise<{ target: string; width: number; height: number }[]> =>
  page.$$eval(".public-nav a, .public-menu-button, .public-button, .public-footer a, .toast button", (targets) =>
    targets
      .filter((target) => target.getClientRects().length > 0)
      .map((target) => {
        const { width, height } = target.getBoundingClientRect();
        return { target: target.textContent?.trim() || (target.getAttribute("aria-label") ?? ""), width: Math.round(width), height: Math.round(height) };
      }),
  );

/**
 * Each download of the history as the page lays it out: whether its values stand one under the
 * other (blocks) or side by side (table row), and the label drawn before each value.
 */
const historyLayout = (page: Page) =>
  page.$$eval(".public-table tbody tr", (rows) =>
    rows.map((row) => {
      const cells = [...row.querySelectorAll("td")];
      const stacked = cells.every((cell, index) => index === 0 || cell.getBoundingClientRect().top >= cells[index - 1]!.getBoundingClientRect().bottom - 0.5);
      // The drawn text: the computed content is the label, quoted, then its alternative text.
      const labels = cells.map((cell) => {
        const content = getComputedStyle(cell, "::before").content;
        return /^"([^"]*)"/.exec(content)?.[1] ?? content;
      });
      return { stacked, labels, values: cells.map((cell) => cell.textContent ?? "") };
    }),
  );

/** Rests the pointer on the toast, which holds it open (CROSS-2) while the test measures it. */
const holdToast = (page: Page) => page.hover(".toaster .toast");

describe.skipIf(!ready)("issue 29: the traveller's pages on a phone (PUBLIC-1..3, WCAG 2.2 AA)", () => {
  let app: E2eApp;
  const orders = {} as Record<LandingDomain, ReadyOrder>;

  beforeAll(async () => {
    app = await startE2eApp();
    orders.primary = await prepareTraveller(app, TRAVELLERS.primary);
    orders.secondary = await prepareTraveller(app, TRAVELLERS.secondary);
  }, 120_000);
  afterEach(async () => {
    await app?.closePages();
  });
  afterAll(async () => {
    await app?.close();
  });

  const openTrack = async (size: { width: number; height: number }, orderId: string): Promise<Page> => {
    const page = await app.newPage(size);
    await page.goto(`${app.base}/track-order/${orderId}`);
    await page.waitForSelector("#track-orderId");
    return page;
  };

  /** The download page of the brand's order, reached as a traveller does: through the track form. */
  const trackToDownload = async (size: { width: number; height: number }, brand: LandingDomain): Promise<Page> => {
    const { orderId } = orders[brand];
    const page = await openTrack(size, orderId);
    await trackOrder(page, orderId, TRAVELLERS[brand].email);
    await waitForToast(page, "success", FOUND);
    await holdToast(page);
    await waitForPath(page, `/get-new-order-details/${orderId}`);
    await page.waitForFunction((name) => document.querySelector(".public-brand")?.textContent === name && document.querySelector(".public-table tbody td[data-label]"), POLL, BRANDS[brand].name);
    return page;
  };

  /** The download page opened with the grant already in the browser (as after tracking), no toast. */
  const openDownload = async (size: { width: number; height: number }, brand: LandingDomain): Promise<Page> => {
    const page = await app.newPage(size);
    await page.browserContext().setCookie({ name: "etd_grant", value: orders[brand].grant, domain: new URL(app.base).hostname, path: "/", httpOnly: true, sameSite: "Strict" });
    await page.goto(`${app.base}/get-new-order-details/${orders[brand].orderId}`);
    await page.waitForFunction((name) => document.querySelector(".public-brand")?.textContent === name && document.querySelector(".public-table tbody td[data-label]"), POLL, BRANDS[brand].name);
    return page;
  };

  it.each(PHONES)("at $width px: the track page fits, its links are reachable, and a refusal's toast covers neither the name nor the form", async (size) => {
    const page = await openTrack(size, orders.primary.orderId);
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect((await targetSizes(page)).filter((target) => target.width < 24 || target.height < 24)).toEqual([]);
    expect(await reachableNavigation(page)).toEqual({ throughMenu: true, labels: navigationLabels(TRACKER_LOOK) });
    expect(await sidewaysOverflow(page)).toEqual([]);

    // An order id nobody has (a different one per width, so no id collects failures).
    await trackOrder(page, String(390_000 + size.width), TRAVELLERS.primary.email);
    await waitForToast(page, "error", NOT_FOUND);
    await holdToast(page);
    const toast = await box(page, ".toaster .toast");
    expect(overlaps(toast, await box(page, ".public-brand")), "the toast covers the brand's name").toBe(false);
    expect(overlaps(toast, await box(page, "form.public-form")), "the toast covers the form").toBe(false);
    // Still announced: a polite live region, the refusal as an alert.
    expect(await page.$eval(".toaster", (el) => el.getAttribute("aria-live"))).toBe("polite");
    expect(await page.$eval(".toaster .toast", (el) => el.getAttribute("role"))).toBe("alert");
    expect(await sidewaysOverflow(page)).toEqual([]);
  });

  for (const brand of ["primary", "secondary"] as const) {
    it.each(PHONES)(`at $width px, ${brand} brand: the download page fits, its links are reachable, the history is labelled blocks, "${FOUND}" covers neither the name nor Download Now`, async (size) => {
      const page = await trackToDownload(size, brand);
      const toast = await box(page, ".toaster .toast");
      expect(overlaps(toast, await box(page, ".public-brand")), "the toast covers the brand's name").toBe(false);
      expect(overlaps(toast, await box(page, "button.public-button")), "the toast covers Download Now").toBe(false);
      expect(await page.$eval(".toaster .toast", (el) => el.getAttribute("role"))).toBe("status");

      expect(await sidewaysOverflow(page)).toEqual([]);
      const [row, ...more] = await historyLayout(page);
      expect(more).toEqual([]);
      expect(row).toEqual({
        stacked: true,
        labels: ["#", "Order ID", "Date and Time (EST)", "Device IP Address", "Device", "Device Type", "Browser", "OS", "Device Location"],
        values: expect.arrayContaining(["1", orders[brand].orderId]),
      });
      // The footer's links and every other target outside running text: 24 px at least (2.5.8).
      const targets = await targetSizes(page);
      expect(targets.map((target) => target.target)).toEqual(expect.arrayContaining(BRANDS[brand].footerLinks.map((link) => link.label)));
      expect(targets.filter((target) => target.width < 24 || target.height < 24)).toEqual([]);

      expect(await reachableNavigation(page)).toEqual({ throughMenu: true, labels: navigationLabels(BRANDS[brand]) });
      expect(await sidewaysOverflow(page)).toEqual([]);
    });
  }

  it("the Menu button is named, tells whether it is open, works from the keyboard, and Escape closes it", async () => {
    const page = await openDownload(PHONES[1], "secondary");
    const expanded = () => page.$eval(".public-menu-button", (button) => button.getAttribute("aria-expanded"));
    const linksShown = () => page.$$eval(".public-nav a", (links) => links.filter((link) => link.getClientRects().length > 0).length);
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    expect(await page.$eval(".public-menu-button", (button) => document.getElementById(button.getAttribute("aria-controls") ?? "")?.tagName)).toBe("UL");
    expect([await expanded(), await linksShown()]).toEqual(["false", 0]);

    // Skip link, then the Menu button.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Menu");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector(".public-menu-button")?.getAttribute("aria-expanded") === "true", POLL);
    expect(await linksShown()).toBe(navigationLabels(BRANDS.secondary).length);
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Track Order");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => document.querySelector(".public-menu-button")?.getAttribute("aria-expanded") === "false", POLL);
    expect([await focused(), await linksShown()]).toEqual(["Menu", 0]);
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelector(".public-menu-button")?.getAttribute("aria-expanded") === "true", POLL);
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.querySelector(".public-menu-button")?.getAttribute("aria-expanded") === "false", POLL);
  });

  it("axe finds no violation of WCAG 2.2 A and AA on either page at 360 px (menu open) and 1280 px; on a laptop the links show in a row and the history is a table", async () => {
    for (const size of [PHONES[1], LAPTOP]) {
      const track = await openTrack(size, orders.primary.orderId);
      if (size === PHONES[1]) await track.locator(".public-menu-button").click();
      expect(await wcagViolations(track), `track page at ${size.width} px`).toEqual([]);
      for (const brand of ["primary", "secondary"] as const) {
        const page = await openDownload(size, brand);
        if (size === PHONES[1]) await page.locator(".public-menu-button").click();
        expect(await wcagViolations(page), `${brand} download page at ${size.width} px`).toEqual([]);
        if (size === LAPTOP) {
          expect(await reachableNavigation(page)).toEqual({ throughMenu: false, labels: navigationLabels(BRANDS[brand]) });
          const [row] = await historyLayout(page);
          expect(row?.stacked).toBe(false);
          expect(await page.$eval(".public-table thead", (head) => head.getBoundingClientRect().height > 1)).toBe(true);
          expect(await sidewaysOverflow(page)).toEqual([]);
        }
      }
      await app.closePages();
    }
  });

  it("at 320 px, with a toast showing, no element the keyboard reaches is hidden behind the toast or the header (2.4.11)", async () => {
    const page = await trackToDownload(PHONES[0], "primary");
    /**
     * The focused element's name, whether it lies wholly on screen, and whether a toast or the
     * header is on top of any part of it (probed at its centre and near its corners).
     */
    const focusedCover = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return undefined;
        const rect = el.getBoundingClientRect();
        const xs = [rect.left + 2, rect.left + rect.width / 2, rect.right - 2];
        const ys = [rect.top + 2, rect.top + rect.height / 2, rect.bottom - 2];
        const covers = (hit: Element | null) => hit !== null && !el.contains(hit) && hit.closest(".toaster .toast, .public-header") !== null && !hit.closest(".public-header")?.contains(el);
        const covered = xs.some((x) => ys.some((y) => covers(document.elementFromPoint(x, y))));
        const name = el.getAttribute("aria-label") ?? (el.textContent?.trim().slice(0, 40) || el.tagName);
        return { name, toastShown: document.querySelector(".toaster .toast") !== null, covered, inView: rect.top >= 0 && rect.bottom <= innerHeight };
      });
    const walk = async (key: "Tab" | "Shift+Tab") => {
      const steps: NonNullable<Awaited<ReturnType<typeof focusedCover>>>[] = [];
      for (let step = 0; step < 20; step++) {
        if (key === "Tab") await page.keyboard.press("Tab");
        else {
          await page.keyboard.down("Shift");
          await page.keyboard.press("Tab");
          await page.keyboard.up("Shift");
        }
        const now = await focusedCover();
        if (now === undefined || steps.some((seen) => seen.name === now.name)) break;
        steps.push(now);
      }
      return steps;
    };
    // From the top of the page, as after opening it: the skip link first. The pointer rests on
    // the toast before each walk, holding it open until scrolling moves it away.
    await page.$eval(".skip-link", (link) => (link as HTMLElement).focus());
    await holdToast(page);
    const forward = [(await focusedCover())!, ...(await walk("Tab"))];
    await holdToast(page);
    const backward = await walk("Shift+Tab");
    expect(forward.map((step) => step.name)).toEqual(expect.arrayContaining(["Menu", "Close notification", "Download Now", "Privacy Policy"]));
    // The walks ran while the toast showed (it closes after 5 s), and nothing focused was covered or out of view.
    expect([...forward, ...backward].filter((step) => !step.toastShown || step.covered || !step.inView)).toEqual([]);
  });

  it("the track form takes a pasted Order ID and an autofilled e-mail (3.3.8), and says which autofill it accepts", async () => {
    const page = await openTrack(PHONES[2], "");
    expect(await page.$$eval("#track-orderId, #track-email", (inputs) => inputs.map((input) => input.getAttribute("autocomplete")))).toEqual(["on", "email"]);
    await page.browserContext().overridePermissions(app.base, ["clipboard-read", "clipboard-write", "clipboard-sanitized-write"]);
    await page.evaluate((id) => navigator.clipboard.writeText(id), orders.primary.orderId);
    await page.locator("#track-orderId").click();
    await page.keyboard.down("Control");
    await page.keyboard.press("KeyV");
    await page.keyboard.up("Control");
    expect(await page.$eval("#track-orderId", (input) => (input as HTMLInputElement).value)).toBe(orders.primary.orderId);
    // What a browser's autofill does: the value set, then input and change.
    await setInputValue(page, "#track-email", TRAVELLERS.primary.email);
    await page.locator("button[type=submit]").click();
    await waitForToast(page, "success", FOUND);
    await waitForPath(page, `/get-new-order-details/${orders.primary.orderId}`);
    await page.waitForFunction((name) => document.querySelector(".public-brand")?.textContent === name, POLL, BRANDS.primary.name);
    expect(await headerBrand(page)).toBe(BRANDS.primary.name);
  });
});
