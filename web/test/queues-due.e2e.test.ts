import * as Result from "effect/Result";
import { generateDemoOrders } from "@etd/demo";
import type { StaffId } from "@etd/events";
import { postgresAvailable } from "@etd/infra/test-database";
import { decodePlaceOrderRequest } from "@etd/write";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, seriousViolations, startE2eApp, wcagViolations, type E2eApp, type HistoryStep, writeOrderHistory } from "./support/index.ts";

/*
 * Issue 27, due in the queues, in a real browser against the real API: the Due column's words
 * (and colour) for an overdue, a due-soon and a paused order, the sort by due, the two due filters
 * with the count they show, and no accessibility violation. The orders' histories are written
 * into the API's store with their own past moments (the product never backdates an event), so
 * every text below follows from moments written out here.
 */

const ready = chromiumAvailable() && (await postgresAvailable());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Waits until the list has the server's answer and no fetch is running. */
const settled = async (page: Page) => {
  await page.waitForSelector(".queue-table[aria-busy='false']");
  await page.waitForFunction(() => !document.querySelector(".queue-table tbody td[role='status']"));
};

/** Waits until the table lists exactly these orders, in this order. */
const waitForRows = async (page: Page, ids: readonly string[]) => {
  await page.waitForFunction(
    (expected) => JSON.stringify([...document.querySelectorAll(".queue-table tbody tr[data-order-id]")].map((row) => (row as HTMLElement).dataset.orderId)) === expected,
    {},
    JSON.stringify(ids),
  );
  await settled(page);
};

/** The Due cell of an order: its words and its urgency class. */
const dueOf = (page: Page, orderId: string) =>
  page.$eval(`.queue-table tbody tr[data-order-id="${orderId}"] .due-badge`, (badge) => ({ text: badge.textContent ?? "", className: badge.className }));

const rangeText = (page: Page) => page.$eval(".queue-range", (el) => el.textContent ?? "");

describe.skipIf(!ready)("issue 27: the Due column in the queues (Chromium)", () => {
  let app: E2eApp;
  const now = Date.now();
  const ids = { overdue: "2709001", soon: "2709002", later: "2709003", paused: "2709004" };

  const writeHistory = (steps: readonly HistoryStep[]) => writeOrderHistory(app, steps, "issue-27-due");

  /**
   * A Priority order paid at `paidAt` (4 h allowed by the default policy), created `createdAgo`
   * before six hours ago: before every payment, so that its processing date (the day it was paid)
   * is never before the day it was created, even when the test runs just after midnight UTC.
   */
  const placed = (orderId: string, paidAt: number, createdAgoMs: number): HistoryStep => {
    const [body] = generateDemoOrders({ seed: Number(orderId), count: 1, now: new Date(paidAt) });
    const decoded = decodePlaceOrderRequest({
      ...body,
      order_id: orderId,
      processing_mode: "priority",
      processing_date: new Date(paidAt).toISOString().slice(0, 10),
      created_at: new Date(now - 6 * HOUR - createdAgoMs).toISOString(),
    });
    if (Result.isFailure(decoded)) throw new Error(decoded.failure.message);
    return { at: paidAt, command: { type: "PlaceOrder", ...decoded.success } };
  };

  beforeAll(async () => {
    app = await startE2eApp();
    const admin = { id: app.admin.id as StaffId, name: app.admin.name, role: "Admin" as const };
    await writeHistory([
      // Paid 5 h ago: an hour overdue. Created the earliest of the three Priority orders.
      placed(ids.overdue, now - 5 * HOUR, 3 * MINUTE),
      // Paid 3 h 30 min ago: due within the half hour. Created the latest.
      placed(ids.soon, now - 3.5 * HOUR, 1 * MINUTE),
      // Paid now: due in 4 h.
      placed(ids.later, now, 2 * MINUTE),
      // Paid an hour ago, taken after 10 minutes, waiting on the customer after 30: 30 min used, 3 h 30 min left, paused.
      placed(ids.paused, now - HOUR, 4 * MINUTE),
      { at: now - 50 * MINUTE, command: { type: "AssignOrder", orderId: ids.paused as never, assignee: { id: admin.id, name: admin.name }, now: new Date(now - 50 * MINUTE).toISOString() } },
      { at: now - 30 * MINUTE, command: { type: "ChangeStatus", orderId: ids.paused as never, to: "Awaiting", actor: admin, permanentDelete: false } },
    ]);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
  });

  it("issue 27: the Due column says, in words and colour, overdue, due soon, due later and paused; it sorts by due and filters the overdue and those due within the hour; axe finds nothing", async () => {
    const page = await app.newPage({ width: 1366, height: 900 });
    await app.openSignedIn(page, app.admin, "/admin/priority-order");
    // Newest first as before: by when each order was created.
    await waitForRows(page, [ids.soon, ids.later, ids.overdue]);
    const headers = await page.$$eval(".queue-table thead th", (cells) => cells.map((cell) => cell.textContent?.replace(/[▲▼↕]/g, "").trim() ?? "").filter((text) => text !== ""));
    expect(headers).toEqual(["Order Id", "Name", "Email", "Telephone", "Arrival Date", "Date & Time", "Departure Date", "Due", "Status", "Action"]);

    const overdue = await dueOf(page, ids.overdue);
    expect(overdue.text).toMatch(/^overdue 1 h( 1 min)?$/);
    expect(overdue.className).toContain("due-overdue");
    const soon = await dueOf(page, ids.soon);
    expect(soon.text).toMatch(/^due in (2[89]|30) min$/);
    expect(soon.className).toContain("due-soon");
    const later = await dueOf(page, ids.later);
    expect(later.text).toMatch(/^due in (3 h 5[89] min|4 h)$/);
    expect(later.className).toContain("due-later");
    expect(await seriousViolations(page)).toEqual([]);
    expect(await wcagViolations(page)).toEqual([]);

    // Sorted by due: the overdue first, then the earliest due.
    await page.locator(".queue-table thead th[aria-sort] ::-p-text(Due)").click();
    await waitForRows(page, [ids.overdue, ids.soon, ids.later]);
    expect(await page.$eval(".queue-table thead th[aria-sort='ascending']", (th) => th.textContent)).toContain("Due");
    expect(new URL(page.url()).searchParams.get("sort")).toBe("due");

    // The filters: one at a time, the count shown follows; pressed again, every order is back.
    await page.locator(".due-filter::-p-text(Overdue)").click();
    await waitForRows(page, [ids.overdue]);
    expect(await rangeText(page)).toBe("Showing 1 to 1 of 1 entries");
    expect(await page.$eval(".due-filter[aria-pressed='true']", (button) => button.textContent)).toBe("Overdue");
    await page.locator(".due-filter::-p-text(Due within the hour)").click();
    await waitForRows(page, [ids.soon]);
    expect(await rangeText(page)).toBe("Showing 1 to 1 of 1 entries");
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator(".due-filter::-p-text(Due within the hour)").click();
    await waitForRows(page, [ids.overdue, ids.soon, ids.later]);
    expect(await rangeText(page)).toBe("Showing 1 to 3 of 3 entries");
  });

  it("issue 27: the Due words move on as time passes, without asking the server again", async () => {
    const page = await app.newPage();
    // The page's clock, under the test's hand: Date.now runs ahead by an offset, and the Due
    // column's once-a-minute timers can be fired at will.
    await page.evaluateOnNewDocument(() => {
      const control = { offset: 0, minuteTimers: [] as (() => void)[] };
      (window as unknown as { dueClock: typeof control }).dueClock = control;
      const realNow = Date.now.bind(Date);
      Date.now = () => realNow() + control.offset;
      const realSetInterval = window.setInterval.bind(window);
      window.setInterval = ((handler: () => void, ms?: number) => {
        if (ms === 60_000) control.minuteTimers.push(handler);
        return realSetInterval(handler, ms);
      }) as typeof window.setInterval;
    });
    let listReads = 0;
    page.on("request", (request) => {
      if (request.url().includes("/api/admin/get-orders-list/")) listReads += 1;
    });
    await app.openSignedIn(page, app.admin, "/admin/priority-order");
    await waitForRows(page, [ids.soon, ids.later, ids.overdue]);
    const minutes = Number(/^due in (\d+) min$/.exec((await dueOf(page, ids.soon)).text)?.[1]);
    const readsBefore = listReads;
    await page.evaluate(() => {
      const control = (window as unknown as { dueClock: { offset: number; minuteTimers: (() => void)[] } }).dueClock;
      control.offset += 2 * 60_000;
      for (const tick of control.minuteTimers) tick();
    });
    await page.waitForFunction(
      (id, before) => {
        const text = document.querySelector(`.queue-table tbody tr[data-order-id="${id}"] .due-badge`)?.textContent ?? "";
        const left = Number(/^due in (\d+) min$/.exec(text)?.[1]);
        return left === before - 2 || left === before - 3;
      },
      {},
      ids.soon,
      minutes,
    );
    expect(listReads).toBe(readsBefore);
  });

  it("issue 27: a paused order says how long it has left in My Orders, and no folder without the column offers it", async () => {
    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, "/admin/my-order");
    await waitForRows(page, [ids.paused]);
    const paused = await dueOf(page, ids.paused);
    expect(paused).toMatchObject({ text: "paused, 3 h 30 min left" });
    expect(paused.className).toContain("due-paused");
    expect(await seriousViolations(page)).toEqual([]);
    expect(await wcagViolations(page)).toEqual([]);

    await page.evaluate(() => {
      history.pushState(history.state, "", "/admin/awaiting-response");
      dispatchEvent(new PopStateEvent("popstate", { state: history.state }));
    });
    await page.waitForFunction(() => document.querySelector("main h1")?.textContent === "Awaiting Response");
    await waitForRows(page, [ids.paused]);
    expect(await page.$$(".due-badge, .due-filters")).toHaveLength(0);
  });
});
