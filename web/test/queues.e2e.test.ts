import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, currentPath, seriousViolations, startE2eApp, waitForText, type E2eApp, type StaffMember } from "./support/index.ts";

/*
 * The queue screens in a real browser against the real API (QUEUE-1..7, QUEUE-12, ADMIN-3,
 * ADMIN-7): which columns each list shows, how it pages and searches, and that each screen has no
 * serious accessibility violation. The bulk actions are in queues-actions.e2e.test.ts.
 */

const ready = chromiumAvailable() && (await postgresAvailable());

// --- reading the list as a user sees it -----------------------------------------------------

/** Waits until the list has the server's answer (not the first Loading…) and no fetch is running. */
const settled = async (page: Page) => {
  await page.waitForSelector(".queue-table[aria-busy='false']");
  await page.waitForFunction(() => !document.querySelector(".queue-table tbody td[role='status']"));
};

/**
 * Goes to `path` inside the app, as a link would (history push; the router follows popstate).
 * Full page loads are kept few: Chromium's back-forward cache keeps each left page's live-update
 * stream open, and after six the browser has no connection left for the seventh load.
 */
const open = async (page: Page, path: string, title: string) => {
  await page.evaluate((target) => {
    history.pushState(history.state, "", target);
    dispatchEvent(new PopStateEvent("popstate", { state: history.state }));
  }, path);
  await page.waitForFunction((expected) => document.querySelector("main h1")?.textContent === expected, {}, title);
  await settled(page);
};

const heading = (page: Page) => page.$eval("main h1", (el) => el.textContent ?? "");

/** The column headers, without the selection column (which has only a checkbox). */
const columns = (page: Page) =>
  page.$$eval(".queue-table thead th", (cells) => cells.map((cell) => cell.textContent?.replace(/[▲▼↕]/g, "").trim() ?? "").filter((text) => text !== ""));

const rowIds = (page: Page) => page.$$eval(".queue-table tbody tr[data-order-id]", (rows) => rows.map((row) => (row as HTMLElement).dataset.orderId ?? ""));

/** The page buttons as shown: numbers and "…". */
const pageItems = (page: Page) =>
  page.$$eval(".queue-pagination li", (items) => items.map((item) => item.textContent?.trim() ?? "").filter((text) => !/Previous|Next/.test(text)));

const rangeText = (page: Page) => page.$eval(".queue-range", (el) => el.textContent ?? "");

/** Waits until the list says it shows this range ("Showing 41 to 50 of 75 entries"). */
const waitForRange = async (page: Page, text: string) => {
  await page.waitForFunction((expected) => document.querySelector(".queue-range")?.textContent === expected, {}, text);
  await settled(page);
};

/** Picks a rows-per-page option and waits until the table shows `rows` rows. */
const chooseRowsPerPage = async (page: Page, size: string, rows: number) => {
  await page.locator(".rows-per-page-button").click();
  await page.locator(`[role="option"]::-p-text(${size})`).click();
  await page.waitForFunction(() => !document.querySelector('[role="listbox"]'));
  await page.waitForFunction((n) => document.querySelectorAll(".queue-table tbody tr[data-order-id]").length === n, {}, rows);
  await settled(page);
};

const searchParams = (page: Page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));

/** Polls `read` until `done` holds (the read models follow the commands within moments). */
const eventually = async <T,>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const dayAfter = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

// ----------------------------------------------------------------------------------------------

describe.skipIf(!ready)("queue screens in the browser", () => {
  let app: E2eApp;
  let adminToken: string;
  let telecaller: StaffMember;
  let teamMember: StaffMember;

  /** Moves orders to a status through the API, as the order detail page would. */
  const moveTo = async (orderIds: string[], updatingStatus: string) => {
    const answer = await app.api("PUT", "/admin/change-order-status", { orderId: orderIds, updatingStatus }, adminToken);
    expect(answer.body.message).toMatch(/successfully/);
  };

  /** Waits until the folder counts (the admin's) satisfy `done`: the read models have caught up. */
  const countsReach = async (done: (counts: Record<string, number>) => boolean) => {
    const counts = await eventually(
      async () => (await app.api("GET", "/admin/get-all-folder-count", undefined, adminToken)).body.data as Record<string, number>,
      done,
    );
    expect(done(counts), JSON.stringify(counts)).toBe(true);
  };

  beforeAll(async () => {
    app = await startE2eApp();
    adminToken = await app.login(app.admin);
    telecaller = await app.addStaff("Telecaller");
    teamMember = await app.addStaff("Team");
    // Every folder gets at least one order, so every screen shows rows.
    const standard = await app.placeOrders(12, () => ({ processing_mode: "standard" }));
    await app.placeOrders(2, () => ({ processing_mode: "priority" }));
    await moveTo([standard[0]!], "Pending");
    await moveTo([standard[1]!], "Completed");
    await moveTo([standard[2]!], "Deleted");
    await moveTo([standard[3]!], "Awaiting");
    await moveTo([standard[4]!], "AwaitingGovt");
    await moveTo([standard[5]!], "CustomerCalled");
    await moveTo([standard[6]!], "ContactCustomer");
    await moveTo([standard[7]!], "Refund");
    await moveTo([standard[8]!], "ChargeBack");
    const assigned = await app.api("PUT", "/admin/assign-order-status", { orderId: [standard[9]!], assignto: app.admin.name }, adminToken);
    expect(assigned.body.status).toBe(1);
    await countsReach((counts) => counts.allOrdersCount === 14 && counts.myOrdersCount === 1 && counts.chargeBack === 1);
  });
  afterAll(async () => {
    await app?.close();
  });

  const intake = ["Order Id", "Name", "Email", "Telephone", "Arrival Date", "Date & Time", "Departure Date", "Status", "Action"];
  const standardColumns = ["Order Id", "Name", "Email", "Telephone", "Arrival Date", "Date & Time", "Status", "Action"];
  const assigned = ["Order Id", "Name", "Email", "Telephone", "Date and Time", "Departure Date", "Status", "Action"];
  /** Issue 27: New, Priority, Pending, Contact Customer, Customer Called and My Orders show Due before Status. */
  const withDue = (columns: readonly string[]) => [...columns.slice(0, columns.indexOf("Status")), "Due", ...columns.slice(columns.indexOf("Status"))];
  const screens: { path: string; title: string; columns: string[] }[] = [
    { path: "/admin/recent-order", title: "New Order", columns: withDue(intake) },
    { path: "/admin/priority-order", title: "Priority Order", columns: withDue(intake) },
    { path: "/admin/pending-order", title: "Pending Orders", columns: withDue(standardColumns) },
    { path: "/admin/completed-order", title: "Completed Orders", columns: standardColumns },
    { path: "/admin/deleted-order", title: "Deleted Orders", columns: standardColumns },
    { path: "/admin/awaiting-response", title: "Awaiting Response", columns: standardColumns },
    { path: "/admin/awaiting-govt", title: "Awaiting Govt", columns: standardColumns },
    { path: "/admin/called", title: "Customer Called", columns: withDue(standardColumns) },
    { path: "/admin/order-history", title: "Order History", columns: standardColumns },
    { path: "/admin/contact-customer", title: "Contact Customer", columns: withDue(standardColumns.filter((c) => c !== "Telephone")) },
    {
      path: "/admin/refund-order",
      title: "Refund Orders",
      columns: ["Order Id", "Email", "Telephone", "Date & Time", "Refund Date", "Status", "Action"],
    },
    { path: "/admin/my-order", title: "My Orders", columns: withDue(assigned) },
    { path: "/admin/chargeback", title: "New Order", columns: assigned },
  ];

  it("QUEUE-1, QUEUE-3, QUEUE-4: every queue has its heading and columns, shows the server's rows, and passes axe-core", async () => {
    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, "/admin/recent-order");
    for (const screen of screens) {
      await open(page, screen.path, screen.title);
      expect(await heading(page), screen.path).toBe(screen.title);
      expect(await columns(page), screen.path).toEqual(screen.columns);
      expect((await rowIds(page)).length, screen.path).toBeGreaterThan(0);
      expect(await seriousViolations(page), screen.path).toEqual([]);
    }
  });

  it("QUEUE-4: an empty list says 'No records found' and 'No data available in table' under a 550px scrolling body", async () => {
    const page = await app.newPage();
    // A Team member has nothing assigned: their My Orders is empty.
    await app.openSignedIn(page, teamMember, "/admin/my-order");
    await settled(page);
    await waitForText(page, "No records found");
    await waitForText(page, "No data available in table");
    const scroll = await page.$eval(".queue-table-scroll", (el) => {
      const style = getComputedStyle(el);
      return { maxHeight: style.maxHeight, overflowY: style.overflowY, sticky: getComputedStyle(el.querySelector("thead th")!).position };
    });
    expect(scroll).toEqual({ maxHeight: "550px", overflowY: "auto", sticky: "sticky" });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("QUEUE-5, SHELL-1: Order History shows a Telecaller the server's refusal", async () => {
    const page = await app.newPage();
    await app.openSignedIn(page, telecaller, "/admin/order-history");
    await page.waitForSelector(".queue-refusal");
    const refusal = await page.$eval(".queue-refusal", (el) => el.textContent ?? "");
    const server = await app.api("GET", "/admin/get-orders-list/allOrder", undefined, await app.login(telecaller));
    expect(server.status).toBe(403);
    expect(refusal).toBe(server.body.message);
  });

  it("QUEUE-2, QUEUE-7: pages with ellipses and one sibling, rows per page 10…All, all in the URL; the total is the folder's count", async () => {
    const before = (await app.api("GET", "/admin/get-all-folder-count", undefined, adminToken)).body.data.newOrdersCount as number;
    // 75 orders at 10 a page make 8 pages: more than six, so the ellipses show.
    await app.placeOrders(75 - before, () => ({ processing_mode: "standard" }));
    const total = await eventually(
      async () => (await app.api("GET", "/admin/get-all-folder-count", undefined, adminToken)).body.data.newOrdersCount as number,
      (count) => count === 75,
    );
    expect(total).toBe(75);
    const pages = Math.ceil(total / 10);

    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, "/admin/recent-order");
    await settled(page);
    expect(await rowIds(page)).toHaveLength(10);
    expect(await rangeText(page)).toBe(`Showing 1 to 10 of ${total} entries`);
    expect(await pageItems(page)).toEqual(["1", "2", "3", "4", "5", "…", String(pages)]);
    expect(await page.$eval("[aria-current='page']", (el) => el.textContent)).toBe("1");

    await page.locator("button[aria-label='Page 5']").click();
    await waitForRange(page, `Showing 41 to 50 of ${total} entries`);
    expect(await searchParams(page)).toEqual({ page: "5" });
    expect(await pageItems(page)).toEqual(["1", "…", "4", "5", "6", "…", String(pages)]);
    const fifth = await rowIds(page);

    await page.locator("button[aria-label='Next page']").click();
    await waitForRange(page, `Showing 51 to 60 of ${total} entries`);
    expect(await rowIds(page)).not.toEqual(fifth);

    // The URL holds the view: reloading shows the same page.
    await page.reload();
    await settled(page);
    expect(await page.$eval("[aria-current='page']", (el) => el.textContent)).toBe("6");

    await chooseRowsPerPage(page, "25", 25);
    expect(await searchParams(page)).toEqual({ size: "25" });
    expect(await rowIds(page)).toHaveLength(25);
    expect(await pageItems(page)).toEqual(Array.from({ length: Math.ceil(total / 25) }, (_, i) => String(i + 1)));

    await chooseRowsPerPage(page, "All", total);
    expect(await rowIds(page)).toHaveLength(total);
    expect(await pageItems(page)).toEqual([]);
    expect(await rangeText(page)).toBe(`Showing 1 to ${total} of ${total} entries`);

    // A URL that is not valid falls back to the defaults instead of failing the screen.
    await open(page, "/admin/recent-order?page=zero&size=7", "New Order");
    await waitForRange(page, `Showing 1 to 10 of ${total} entries`);
    expect(await rowIds(page)).toHaveLength(10);
    const options = await (async () => {
      await page.locator(".rows-per-page-button").click();
      const texts = await page.$$eval("[role='option']", (items) => items.map((item) => item.textContent));
      await page.keyboard.press("Escape");
      return texts;
    })();
    expect(options).toEqual(["10", "25", "50", "100", "500", "All"]);
  });

  it("QUEUE-2: the search box waits 500 ms, then finds an order by part of its e-mail within the folder", async () => {
    const [wanted] = await app.placeOrders(1, () => ({
      processing_mode: "standard",
      email: "Zebra.Crossing-4711@example.org",
      confirm_email: "Zebra.Crossing-4711@example.org",
    }));
    // The read model has it before the page opens (the live feed reports only later changes).
    await eventually(
      async () => (await app.api("POST", "/admin/search-order", { searchVal: "zebra", folderName: "newOrder" }, adminToken)).body.total as number,
      (found) => found === 1,
    );
    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, "/admin/recent-order");
    await settled(page);
    const searches: string[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/admin/search-order")) searches.push(request.postData() ?? "");
    });
    await page.locator(".queue-search input").click();
    await page.keyboard.type("zebra.cross", { delay: 40 });
    await page.waitForFunction(() => new URLSearchParams(location.search).get("search") === "zebra.cross");
    await settled(page);
    await page.waitForFunction((id) => {
      const rows = [...document.querySelectorAll<HTMLElement>(".queue-table tbody tr[data-order-id]")];
      return rows.length === 1 && rows[0]!.dataset.orderId === id;
    }, {}, wanted);
    // Typing eleven characters sent one search, not eleven.
    expect(searches).toHaveLength(1);
    expect(JSON.parse(searches[0]!)).toMatchObject({ searchVal: "zebra.cross", folderName: "newOrder", start: 0, end: 10 });

    // The same text in another folder finds nothing there.
    await open(page, "/admin/completed-order?search=zebra.cross", "Completed Orders");
    await waitForText(page, "No records found");
    expect(await page.$eval(".queue-search input", (el) => el.value)).toBe("zebra.cross");
  });

  it("QUEUE-12, ADMIN-7: on the Chargeback list (titled New Order) View is greyed and inert for another member's order", async () => {
    const [mine, theirs, nobody] = await app.placeOrders(3, () => ({ processing_mode: "standard" }));
    const teamToken = await app.login(teamMember);
    await app.api("PUT", "/admin/assign-order-status", { orderId: [theirs!], assignto: teamMember.name }, teamToken);
    await app.api("PUT", "/admin/assign-order-status", { orderId: [mine!], assignto: app.admin.name }, adminToken);
    await moveTo([mine!, theirs!, nobody!], "ChargeBack");
    await countsReach((counts) => counts.chargeBack === 4);

    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, "/admin/chargeback");
    await settled(page);
    type ViewLink = { href: string | null; disabled: string | null };
    const views = await page.$$eval(".queue-table tbody tr[data-order-id]", (rows) =>
      Object.fromEntries(
        rows.map((row): [string, ViewLink] => {
          const view = row.querySelector(".queue-view-link")!;
          return [(row as HTMLElement).dataset.orderId ?? "", { href: view.getAttribute("href"), disabled: view.getAttribute("aria-disabled") }];
        }),
      ),
    );
    expect(views[theirs!]).toEqual({ href: null, disabled: "true" });
    expect(views[mine!]).toEqual({ href: `/admin/view-order/${mine}`, disabled: null });
    expect(views[nobody!]).toEqual({ href: `/admin/view-order/${nobody}`, disabled: null });
    // Clicking the greyed View goes nowhere.
    await page.locator(`tr[data-order-id="${theirs}"] .queue-view-link`).click();
    expect(await currentPath(page)).toBe("/admin/chargeback");
  });

  it("ADMIN-3: Future Orders shows twelve month tiles with counts; a month opens its table, Back returns", async () => {
    const due = dayAfter(45);
    const month = due.slice(0, 7);
    const future = await app.placeOrders(7, (_, index) => ({ processing_mode: index % 2 === 0 ? "standard" : "priority", processing_date: due }));
    type Tile = { processMonth: string; name: string; count: number };
    const expected = await eventually(
      async () =>
        ((await app.api("GET", "/admin/get-future-months", undefined, adminToken)).body.data as Tile[]).find((tile) => tile.processMonth === month)!,
      (tile) => tile.count === 7,
    );
    expect(expected.count).toBe(7);

    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, "/admin/future-order");
    await page.waitForSelector(".future-month");
    expect(await heading(page)).toBe("Future Orders");
    // January to December, as the browser's own calendar names them.
    const months = Array.from({ length: 12 }, (_, month) => new Date(Date.UTC(2025, month, 1)).toLocaleString("en-US", { month: "long", timeZone: "UTC" }));
    expect(await page.$$eval(".future-month-name", (items) => items.map((item) => item.textContent))).toEqual(months);
    expect(await page.$eval(`[data-count="future-${month}"]`, (el) => el.textContent)).toBe("7");
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator(`.future-month[data-month="${month}"]`).click();
    await page.waitForFunction((m) => new URLSearchParams(location.search).get("month") === m, {}, month);
    await settled(page);
    expect(await heading(page)).toBe(`Future Orders: ${expected.name} ${month.slice(0, 4)}`);
    expect(await columns(page)).toEqual([
      "Order ID",
      "Name",
      "Email",
      "Telephone",
      "Date and Time",
      "Processing Date",
      "Process Month",
      "Status",
      "Action",
    ]);
    expect((await rowIds(page)).sort()).toEqual([...future].sort());
    expect(await rangeText(page)).toBe("Showing 1 to 7 of 7 entries");
    expect(await seriousViolations(page)).toEqual([]);

    // 001 §9: 5, 10, 20, 50, All; with 5 a page the month has two pages.
    await chooseRowsPerPage(page, "5", 5);
    expect(await rowIds(page)).toHaveLength(5);
    expect(await pageItems(page)).toEqual(["1", "2"]);

    // Sortable: Order ID descending puts the highest id first.
    await page.locator(".queue-table thead button::-p-text(Order ID)").click();
    await page.locator(".queue-table thead button::-p-text(Order ID)").click();
    expect((await rowIds(page))[0]).toBe([...future].sort().reverse()[0]);

    // Search within the month: by part of an order id.
    const sought = future[3]!;
    await page.locator(".queue-search input").fill(sought.slice(-4));
    await page.waitForFunction(
      (id) => {
        const rows = [...document.querySelectorAll<HTMLElement>(".queue-table tbody tr[data-order-id]")];
        return rows.length === 1 && rows[0]!.dataset.orderId === id;
      },
      {},
      sought,
    );
    expect(await searchParams(page)).toMatchObject({ month, search: sought.slice(-4) });

    await page.locator("main button::-p-text(Back)").click();
    await page.waitForSelector(".future-month");
    expect(await searchParams(page)).not.toHaveProperty("month");
  });

  it("ADMIN-7: Order Processed lists for an Admin and shows others the server's refusal, without the Processed By link (ADMIN-5)", async () => {
    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, "/admin/processed-order");
    await settled(page);
    expect(await heading(page)).toBe("Order Processed");
    expect(await columns(page)).toEqual(["Order Id", "Processed By", "Processed At", "Status", "Processing Mode", "Processing Date", "Citizenship", "Action"]);
    // Issue 16 D: the list as CSV, by the heading like the other screens' Export CSV.
    expect(await page.$eval(".export-link", (el) => [el.textContent, el.getAttribute("href")])).toEqual([
      "Export CSV",
      "/api/admin/export-report?report=order-processed",
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    // ADMIN-5 beside the list it sums up, for the same roles (issue 25).
    expect(await page.$('a[href="/admin/processed-by"]')).not.toBeNull();

    const teamPage = await app.newPage();
    await app.openSignedIn(teamPage, teamMember, "/admin/processed-order");
    await teamPage.waitForSelector(".queue-refusal");
    const server = await app.api("GET", "/admin/get-processed-orders", undefined, await app.login(teamMember));
    expect(server.status).toBe(403);
    expect(await teamPage.$eval(".queue-refusal", (el) => el.textContent)).toBe(server.body.message);
    expect(await teamPage.$('a[href="/admin/processed-by"]')).toBeNull();
  });
});
