import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, POLL, seriousViolations, startE2eApp, type E2eApp } from "./support/index.ts";

/*
 * Issue 10 item 9: every queue fits a 1366×768 laptop. With the longest names and e-mail
 * addresses a customer may plausibly have, the first row's View link is on screen without any
 * scrolling (neither the page nor the table scrolls sideways), and a long name or address is
 * still readable in full: wrapped within its cell, never cut off.
 */

const ready = chromiumAvailable() && (await postgresAvailable());

const EMAIL = "maximiliana.fernandez-castellanos.delavega@correo-electronico-internacional.example.com";

const USUAL_EMAIL = "benjaminmacdonald@example.org";

const LONG = {
  first_name: "Maximiliana Alexandrina",
  middle_name: "Guadalupe Esperanza",
  last_name: "Fernández-Castellanos de la Vega y Montenegro",
  email: EMAIL,
  confirm_email: EMAIL,
};

const dayAfter = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The fourteen folders of the side menu and the dashboard, each with its heading. */
const FOLDERS: readonly { path: string; title: string }[] = [
  { path: "/admin/recent-order", title: "New Order" },
  { path: "/admin/priority-order", title: "Priority Order" },
  { path: "/admin/pending-order", title: "Pending Orders" },
  { path: "/admin/completed-order", title: "Completed Orders" },
  { path: "/admin/deleted-order", title: "Deleted Orders" },
  { path: "/admin/awaiting-response", title: "Awaiting Response" },
  { path: "/admin/awaiting-govt", title: "Awaiting Govt" },
  { path: "/admin/called", title: "Customer Called" },
  { path: "/admin/order-history", title: "Order History" },
  { path: "/admin/contact-customer", title: "Contact Customer" },
  { path: "/admin/refund-order", title: "Refund Orders" },
  { path: "/admin/my-order", title: "My Orders" },
  { path: "/admin/chargeback", title: "New Order" },
  // Future Orders: one month's table (ADMIN-3), titled with the month; the month is set in beforeAll.
  { path: "/admin/future-order?month=", title: "Future Orders: " },
];

/** Where the first row's View link is, against the window, and how far anything has scrolled. */
const firstViewLink = (page: Page) =>
  page.evaluate(() => {
    const link = document.querySelector<HTMLElement>(".queue-table tbody tr[data-order-id] .queue-view-link")!;
    const box = link.getBoundingClientRect();
    const scroller = document.querySelector<HTMLElement>(".queue-table-scroll")!;
    return {
      left: box.left,
      top: box.top,
      right: box.right,
      bottom: box.bottom,
      width: window.innerWidth,
      height: window.innerHeight,
      pageScrolled: window.scrollX !== 0 || window.scrollY !== 0,
      pageOverflows: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      tableOverflows: scroller.scrollWidth > scroller.clientWidth,
    };
  });

/** Every cell showing one of the long values: its full text, and whether any of it is cut off. */
const longCells = (page: Page, values: readonly string[]) =>
  page.evaluate((wanted) => {
    const cells = [...document.querySelectorAll<HTMLElement>(".queue-table tbody td")].filter((cell) => wanted.includes(cell.textContent?.trim() ?? ""));
    return cells.map((cell) => ({ text: cell.textContent?.trim() ?? "", clipped: cell.scrollWidth > cell.clientWidth }));
  }, values);

describe.skipIf(!ready)("the queues on a 1366×768 laptop", () => {
  let app: E2eApp;
  let futureMonth = "";
  let completedOrder = "";

  beforeAll(async () => {
    app = await startE2eApp();
    const adminToken = await app.login(app.admin);
    const move = async (orderId: string, updatingStatus: string) => {
      const answer = await app.api("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus }, adminToken);
      expect(answer.body.status, answer.body.message).toBe(1);
    };
    // A usual address, one long word before its "@" (the UX review saw it broken over five lines).
    await app.placeOrders(1, () => ({ email: USUAL_EMAIL, confirm_email: USUAL_EMAIL, processing_mode: "standard" }));
    // Every folder gets orders whose customers have long names and addresses.
    const standard = await app.placeOrders(11, () => ({ ...LONG, processing_mode: "standard" }));
    await app.placeOrders(1, () => ({ ...LONG, processing_mode: "priority" }));
    const future = dayAfter(45);
    futureMonth = future.slice(0, 7);
    await app.placeOrders(1, () => ({ ...LONG, processing_mode: "standard", processing_date: future }));
    const statuses = ["Pending", "Completed", "Deleted", "Awaiting", "AwaitingGovt", "CustomerCalled", "ContactCustomer", "Refund", "ChargeBack"];
    for (const [index, status] of statuses.entries()) await move(standard[index]!, status);
    completedOrder = standard[1]!;
    const assigned = await app.api("PUT", "/admin/assign-order-status", { orderId: [standard[9]!], assignto: app.admin.name }, adminToken);
    expect(assigned.body.status).toBe(1);
  });

  afterAll(async () => {
    await app?.close();
  });

  it("every folder shows the first row's View link on screen, with no sideways scrolling, long names and addresses in full", async () => {
    const page = await app.newPage({ width: 1366, height: 768 });
    await app.openSignedIn(page, app.admin, "/admin");
    const fullName = `${LONG.first_name} ${LONG.middle_name} ${LONG.last_name}`;
    for (const folder of FOLDERS) {
      const path = folder.path.endsWith("month=") ? `${folder.path}${futureMonth}` : folder.path;
      // Opened as a link would (history push; the router follows popstate), so the page starts unscrolled.
      await page.evaluate((target) => {
        history.pushState(history.state, "", target);
        dispatchEvent(new PopStateEvent("popstate", { state: history.state }));
      }, path);
      await page.waitForFunction(
        (title) =>
          (title.endsWith(": ") ? document.querySelector("main h1")?.textContent?.startsWith(title) : document.querySelector("main h1")?.textContent === title) &&
          document.querySelector(".queue-table tbody tr[data-order-id]") !== null,
        POLL,
        folder.title,
      );
      await page.evaluate(() => window.scrollTo(0, 0));

      const view = await firstViewLink(page);
      expect(view.left, path).toBeGreaterThanOrEqual(0);
      expect(view.top, path).toBeGreaterThanOrEqual(0);
      expect(view.right, path).toBeLessThanOrEqual(view.width);
      expect(view.bottom, path).toBeLessThanOrEqual(view.height);
      expect({ page: view.pageOverflows, table: view.tableOverflows, scrolled: view.pageScrolled }, path).toEqual({ page: false, table: false, scrolled: false });

      const cells = await longCells(page, [fullName, LONG.email]);
      // The refund list has no Name column; every other list shows both.
      expect(cells.map((cell) => cell.text).sort(), path).toEqual(expect.arrayContaining(path.includes("refund") ? [LONG.email] : [fullName, LONG.email]));
      expect(cells.filter((cell) => cell.clipped), path).toEqual([]);
    }
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("UX review: in New, with the Due column, a usual address takes at most two lines, broken at its \"@\" or a dot, and its telephone number at most two", async () => {
    const page = await app.newPage({ width: 1366, height: 768 });
    await app.openSignedIn(page, app.admin, "/admin/recent-order?size=All");
    await page.waitForFunction((email) => [...document.querySelectorAll(".queue-email")].some((el) => el.textContent === email), POLL, USUAL_EMAIL);
    const shown = await page.evaluate((email) => {
      const address = [...document.querySelectorAll<HTMLElement>(".queue-email")].find((el) => el.textContent === email)!;
      // The lines as drawn: each text node's boxes, grouped by their top.
      const range = document.createRange();
      const lines = new Map<number, string>();
      for (const node of address.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE) continue;
        range.selectNodeContents(node);
        const top = Math.round(range.getBoundingClientRect().top);
        lines.set(top, (lines.get(top) ?? "") + node.textContent);
      }
      const phone = address.closest("tr")!.querySelector<HTMLElement>("td:nth-child(5)")!;
      range.selectNodeContents(phone);
      const phoneLines = new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
      return { lines: [...lines.values()], phoneLines, overflows: document.querySelector<HTMLElement>(".queue-table-scroll")!.scrollWidth > document.querySelector<HTMLElement>(".queue-table-scroll")!.clientWidth };
    }, USUAL_EMAIL);
    expect(shown.lines.join("")).toBe(USUAL_EMAIL);
    expect(shown.lines.length, shown.lines.join(" | ")).toBeLessThanOrEqual(2);
    expect(shown.lines.every((line, index) => index === 0 || /^(\.|example)/.test(line)), shown.lines.join(" | ")).toBe(true);
    expect(shown.phoneLines).toBeLessThanOrEqual(2);
    expect(shown.overflows).toBe(false);
  });

  it("WCAG 2.4.11: walking back with Shift+Tab through Order History and an order page, no focused control is hidden under the sticky header or the list's column headings", async () => {
    const page = await app.newPage({ width: 1366, height: 768 });
    await app.openSignedIn(page, app.admin, "/admin/order-history?size=All");
    await page.waitForFunction(() => document.querySelectorAll(".queue-table tbody tr[data-order-id]").length >= 13, POLL);
    // The list has measured its headings (they wrap at this width) before the walk relies on it.
    await page.waitForFunction(() => {
      const scroller = document.querySelector<HTMLElement>(".queue-table-scroll")!;
      const measured = parseFloat(scroller.style.getPropertyValue("--head-height"));
      return Math.abs(measured - scroller.querySelector("thead")!.getBoundingClientRect().height) < 0.5;
    }, POLL);
    // The list must scroll within its 550 px, or the column headings could cover nothing.
    expect(await page.$eval(".queue-table-scroll", (scroller) => scroller.scrollHeight > scroller.clientHeight)).toBe(true);

    const walkBack = async (steps: number) => {
      const covered: string[] = [];
      const seen = new Set<string>();
      for (let step = 0; step < steps; step++) {
        await page.keyboard.down("Shift");
        await page.keyboard.press("Tab");
        await page.keyboard.up("Shift");
        const focused = await page.evaluate(() => {
          const focused = document.activeElement;
          if (!focused || focused === document.body) return undefined;
          // A checkbox's input is visually hidden: what the eye follows is its label's box.
          const el = focused.closest("label") ?? focused;
          const rect = el.getBoundingClientRect();
          const name = `${focused.tagName} ${focused.getAttribute("aria-label") ?? focused.textContent?.trim().slice(0, 30) ?? ""} @${Math.round(rect.top)}`;
          // Only what sticks: the page's header, and the list's headings (unless the control is in
          // them, or they are in it: the list's own scrolling region).
          const covers = (hit: Element | null) => {
            const sticky = hit?.closest(".app-header, .queue-table thead");
            return sticky !== null && sticky !== undefined && !sticky.contains(el) && !el.contains(sticky);
          };
          const xs = [rect.left + 2, rect.left + rect.width / 2, rect.right - 2];
          const ys = [rect.top + 2, rect.top + rect.height / 2, rect.bottom - 2];
          const hidden = xs.some((x) => ys.some((y) => covers(document.elementFromPoint(x, y)))) || rect.top < 0 || rect.bottom > innerHeight;
          return { name, hidden };
        });
        if (!focused) continue;
        if (focused.hidden) covered.push(focused.name);
        seen.add(focused.name);
      }
      return { covered, seen: seen.size };
    };

    /** From the end of the page (and of the list, if any), as after reading down to it: the last control focused. */
    const fromTheEnd = () =>
      page.evaluate(() => {
        const scroller = document.querySelector<HTMLElement>(".queue-table-scroll");
        if (scroller) scroller.scrollTop = scroller.scrollHeight;
        window.scrollTo(0, document.documentElement.scrollHeight);
        const controls = [...document.querySelectorAll<HTMLElement>("main a[href], main button, main input, main select, main textarea, main [tabindex='0']")];
        controls.at(-1)?.focus();
      });

    await fromTheEnd();
    const list = await walkBack(45);
    expect(list.seen).toBeGreaterThan(30);
    expect(list.covered).toEqual([]);

    await app.openSignedIn(page, app.admin, `/admin/view-order/${completedOrder}`);
    await page.waitForFunction(() => document.querySelector("main h1") !== null && document.querySelectorAll("main button").length > 5, POLL);
    expect(await page.evaluate(() => document.documentElement.scrollHeight > innerHeight * 2)).toBe(true);
    await fromTheEnd();
    const order = await walkBack(60);
    expect(order.seen).toBeGreaterThan(20);
    expect(order.covered).toEqual([]);
  });
});
