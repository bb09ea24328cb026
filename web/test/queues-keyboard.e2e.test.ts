import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, POLL, seriousViolations, shownOrder, startE2eApp, waitForPath, type E2eApp, type StaffMember } from "./support/index.ts";

/*
 * Issue 16 part C, QUEUE-2, QUEUE-9: the New queue worked by keyboard alone. After the page
 * opens signed in, every step is a key press (page.keyboard, never a click): `/` to search, part
 * of an order id, Escape out of the box, `j` to the order, `x` to tick and untick it, `?` for the
 * shortcuts, `a` to claim it and Enter to confirm; the order page then opens on that order,
 * assigned to the member. What moved is said in the polite live region, and axe finds nothing
 * serious with the shortcuts dialog open or closed.
 */

const ready = chromiumAvailable() && (await postgresAvailable());

const rowSelector = (orderId: string) => `.queue-table tbody tr[data-order-id="${orderId}"]`;

/** The ids of the rows the list shows now, in order. */
const shownIds = (page: Page) => page.$$eval(".queue-table tbody tr[data-order-id]", (rows) => rows.map((row) => row.getAttribute("data-order-id")));

/** The rows marked current (issue 16 C: aria-current on the row, drawn with the focus ring). */
const currentIds = (page: Page) => page.$$eval(".queue-table tbody tr[aria-current='true']", (rows) => rows.map((row) => row.getAttribute("data-order-id")));

const liveText = (page: Page) => page.$eval(".live-region[aria-live='polite']", (el) => el.textContent ?? "");

const waitForLive = async (page: Page, text: string) => {
  try {
    await page.waitForFunction((expected) => document.querySelector(".live-region")?.textContent?.includes(expected) === true, POLL, text);
  } catch (error) {
    throw new Error(`the live region never said "${text}"; it says "${await liveText(page)}"`, { cause: error });
  }
};

const activeTag = (page: Page) => page.evaluate(() => `${document.activeElement?.tagName.toLowerCase()}${document.activeElement?.getAttribute("placeholder") ? `[${document.activeElement.getAttribute("placeholder")}]` : ""}`);

describe.skipIf(!ready)("Issue 16 C: the queues by keyboard (QUEUE-2, QUEUE-9)", () => {
  let app: E2eApp;
  let member: StaffMember;
  let adminToken: string;

  beforeAll(async () => {
    app = await startE2eApp();
    adminToken = await app.login(app.admin);
    member = await app.addStaff("Team", { name: "Kim Keys" });
  });
  afterEach(async () => {
    await app?.closePages();
  });
  afterAll(async () => {
    await app?.close();
  });

  it("issue 16, QUEUE-9: a whole claim-and-open round in New by keyboard alone; typing in the search box never moves rows; announced; axe clean", async () => {
    const orders = await app.placeOrders(3, () => ({ processing_mode: "standard" }));
    const target = orders[1]!;
    // The page's first read must see every order (the live feed reports only later changes).
    const token = await app.login(member);
    for (const deadline = Date.now() + 15_000; ; ) {
      const list = await app.api("GET", "/admin/get-orders-list/newOrder?limit=All", undefined, token);
      if (orders.every((id) => (list.body.data as { id: string }[]).some((row) => row.id === id))) break;
      if (Date.now() > deadline) throw new Error("the orders never reached New");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const page = await app.newPage();
    await app.openSignedIn(page, member, "/admin/recent-order");
    await page.waitForSelector(rowSelector(target));
    await page.waitForSelector(".queue-table[aria-busy='false']");
    expect(await seriousViolations(page)).toEqual([]);
    expect(await currentIds(page)).toEqual([]);

    // `/` goes to the search box; letters typed there are text, not shortcuts.
    await page.keyboard.press("/");
    expect(await activeTag(page)).toBe("input[Search]");
    await page.keyboard.type("jkx");
    expect(await page.$eval(".queue-search input", (el) => el.value)).toBe("jkx");
    expect(await currentIds(page)).toEqual([]);
    expect(await page.$$(".queue-table tbody tr[data-selected]")).toHaveLength(0);
    for (let i = 0; i < 3; i++) await page.keyboard.press("Backspace");

    // Part of the order id, then Escape: out of the box, the text kept and searched at once.
    const part = target.slice(1);
    await page.keyboard.type(part);
    await page.keyboard.press("Escape");
    expect(await activeTag(page)).not.toBe("input[Search]");
    expect(await page.$eval(".queue-search input", (el) => el.value)).toBe(part);
    await page.waitForFunction((id) => {
      const ids = [...document.querySelectorAll(".queue-table tbody tr[data-order-id]")].map((row) => row.getAttribute("data-order-id"));
      return ids.length === 1 && ids[0] === id;
    }, POLL, target);

    // j: the first (only) row becomes current, drawn and announced.
    await page.keyboard.press("j");
    await page.waitForSelector(`${rowSelector(target)}[aria-current='true']`);
    expect(await currentIds(page)).toEqual([target]);
    expect(await shownIds(page)).toEqual([target]);
    const name = await page.$eval(`${rowSelector(target)} td:nth-child(3)`, (el) => el.textContent ?? "");
    await waitForLive(page, `Row 1 of 1: order ${target}, ${name}`);
    const ring = await page.$eval(`${rowSelector(target)}`, (el) => getComputedStyle(el).outlineStyle);
    expect(ring).toBe("solid");

    // x ticks the current row and says so; x again unticks it (so `a` claims the current order).
    await page.keyboard.press("x");
    await page.waitForSelector(`${rowSelector(target)}[data-selected]`);
    await waitForLive(page, `order ${target}, ${name} selected.`);
    await page.keyboard.press("x");
    await page.waitForFunction((selector) => document.querySelector(selector) === null, POLL, `${rowSelector(target)}[data-selected]`);
    await waitForLive(page, `order ${target}, ${name} not selected.`);

    // ? lists the shortcuts in a dialog; keys there are the dialog's; Escape closes it.
    await page.keyboard.press("?");
    await page.waitForSelector("[role='dialog']");
    expect(await page.$eval("[role='dialog'] .dialog-title", (el) => el.textContent)).toBe("Keyboard shortcuts");
    const listed = await page.$$eval("[role='dialog'] dd", (items) => items.map((item) => item.textContent));
    expect(listed).toContain("Open the order");
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("k");
    expect(await currentIds(page)).toEqual([target]);
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => document.querySelector("[role='dialog']") === null, POLL);
    expect(await seriousViolations(page)).toEqual([]);

    // a asks first (QUEUE-9's words); Enter answers Yes; the claimed order opens, assigned to the member.
    await page.keyboard.press("a");
    await page.waitForSelector("[role='alertdialog']");
    expect(await page.$eval("[role='alertdialog'] p", (el) => el.textContent)).toBe("Are you sure want to assigned orders.");
    await page.keyboard.press("Enter");
    await waitForPath(page, `/admin/view-order/${target}`);
    await shownOrder(page, target, "Pending", 20_000);
    // Not read-only: the order is the member's own now.
    expect(await page.$(".order-read-only")).toBeNull();
    const details = await app.api("GET", `/admin/get-orders-details/${target}`, undefined, adminToken);
    expect(details.body.data.assign_to_id).toBe(member.id);
    expect(details.body.data.process_status).toBe("Pending");
    // The other orders were left as they were.
    for (const other of orders.filter((id) => id !== target)) {
      const answer = await app.api("GET", `/admin/get-orders-details/${other}`, undefined, adminToken);
      expect(answer.body.data.process_status).toBe("New");
    }
  });

  it("issue 16 C: k and the arrows move within the page; Escape answers No in a confirmation and nothing is claimed", async () => {
    const [order] = await app.placeOrders(1, () => ({ processing_mode: "standard" }));
    const token = await app.login(member);
    for (const deadline = Date.now() + 15_000; ; ) {
      const list = await app.api("GET", "/admin/get-orders-list/newOrder?limit=All", undefined, token);
      if ((list.body.data as { id: string }[]).some((row) => row.id === order)) break;
      if (Date.now() > deadline) throw new Error("the order never reached New");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const page = await app.newPage();
    await app.openSignedIn(page, member, "/admin/recent-order");
    await page.waitForSelector(rowSelector(order!));
    const ids = await shownIds(page);
    // k from no current row starts at the last row; Arrow Down goes no further than the end.
    await page.keyboard.press("k");
    await page.waitForSelector(`${rowSelector(ids.at(-1)!)}[aria-current='true']`);
    await page.keyboard.press("ArrowDown");
    await waitForLive(page, "(last on this page)");
    await page.keyboard.press("a");
    await page.waitForSelector("[role='alertdialog']");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => document.querySelector("[role='alertdialog']") === null, POLL);
    const still = await app.api("GET", `/admin/get-orders-details/${ids.at(-1)}`, undefined, adminToken);
    expect(still.body.data.assign_to_id ?? null).toBeNull();
    expect(await currentIds(page)).toEqual([ids.at(-1)]);
    // Enter on a focused row's checkbox belongs to the checkbox: it opens no order (not the current one either).
    await page.focus(`${rowSelector(ids[0]!)} input[type='checkbox']`);
    await page.keyboard.press("Enter");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await page.evaluate(() => location.pathname)).toBe("/admin/recent-order");
  });
});
