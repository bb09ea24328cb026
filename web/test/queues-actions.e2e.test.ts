import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, shownCount, startE2eApp, waitForToast, type E2eApp, type StaffMember } from "./support/index.ts";

/*
 * The queues' bulk actions in a real browser against the real API (QUEUE-8..11, QUEUE-14): the
 * confirmation with the spec's words, the server's message as a toast, and rows leaving a list
 * only because the refetched list no longer has them. Also the lost race of two members assigning
 * the same order (QUEUE-9: the loser learns who won, and when).
 */

const ready = chromiumAvailable() && (await postgresAvailable());

// --- driving the list as a user would ---------------------------------------------------------

const settled = async (page: Page) => {
  await page.waitForSelector(".queue-table[aria-busy='false']");
  await page.waitForFunction(() => !document.querySelector(".queue-table tbody td[role='status']"));
};

const row = (orderId: string) => `.queue-table tbody tr[data-order-id="${orderId}"]`;

/** Waits until the list shows the order. */
const waitForRow = async (page: Page, orderId: string) => {
  await page.waitForSelector(row(orderId));
};

const waitForRowGone = async (page: Page, orderId: string) => {
  await page.waitForFunction((selector) => !document.querySelector(selector), {}, row(orderId));
};

const select = async (page: Page, orderId: string) => {
  await page.locator(`${row(orderId)} label.checkbox`).click();
  await page.waitForSelector(`${row(orderId)}[data-selected]`);
};

/** A toolbar button by its label, e.g. "Assign to me". */
const toolbarButton = (page: Page, label: string) => page.locator(`.queue-actions button::-p-text(${label})`);

const toolbarButtonDisabled = (page: Page, label: string) =>
  page.$$eval(
    ".queue-actions button",
    (buttons, text) => buttons.find((button) => button.textContent === text)?.hasAttribute("disabled") ?? null,
    label,
  );

const toolbarLabels = (page: Page) => page.$$eval(".queue-actions button", (buttons) => buttons.map((button) => button.textContent ?? ""));

/** The open confirmation's message (000 §2), once it shows. */
const confirmation = async (page: Page) => {
  await page.waitForSelector("[role='alertdialog']");
  return page.$eval("[role='alertdialog'] p", (el) => el.textContent ?? "");
};

const answer = async (page: Page, choice: "Yes" | "No") => {
  await page.locator(`[role='alertdialog'] button::-p-text(${choice})`).click();
  await page.waitForFunction(() => !document.querySelector("[role='alertdialog']"));
};

const cellText = (page: Page, orderId: string, column: string) =>
  page.evaluate(
    (selector, header) => {
      const headers = [...document.querySelectorAll(".queue-table thead th")].map((th) => th.textContent?.trim());
      const index = headers.indexOf(header);
      return document.querySelector(selector)?.querySelectorAll("td")[index]?.textContent ?? null;
    },
    row(orderId),
    column,
  );

/** Goes to `path` inside the app (history push; the router follows popstate), without a page load. */
const open = async (page: Page, path: string, title: string) => {
  await page.evaluate((target) => {
    history.pushState(history.state, "", target);
    dispatchEvent(new PopStateEvent("popstate", { state: history.state }));
  }, path);
  await page.waitForFunction((expected) => document.querySelector("main h1")?.textContent === expected, {}, title);
  await settled(page);
};

// ----------------------------------------------------------------------------------------------

describe.skipIf(!ready)("queue actions in the browser", () => {
  let app: E2eApp;
  let adminToken: string;
  let manager: StaffMember;
  let alice: StaffMember;
  let bob: StaffMember;

  const setStatus = async (orderIds: string[], updatingStatus: string) => {
    const result = await app.api("PUT", "/admin/change-order-status", { orderId: orderIds, updatingStatus }, adminToken);
    expect(result.body.status, result.body.message).toBe(1);
  };

  /**
   * Waits until the server lists the order in this member's folder. Orders are set up through the
   * API just before a page opens; the page's first read must already see them, because the live
   * feed only reports changes that happen after it connects.
   */
  const listed = async (member: StaffMember, queueKey: string, orderId: string) => {
    const token = await app.login(member);
    const deadline = Date.now() + 30_000;
    for (;;) {
      const list = await app.api("GET", `/admin/get-orders-list/${queueKey}?limit=All`, undefined, token);
      if ((list.body.data as { id: string }[]).some((r) => r.id === orderId)) return;
      if (Date.now() > deadline) throw new Error(`order ${orderId} never reached ${queueKey}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    app = await startE2eApp();
    adminToken = await app.login(app.admin);
    manager = await app.addStaff("Manager");
    alice = await app.addStaff("Team", { name: "Alice Team" });
    bob = await app.addStaff("Team", { name: "Bob Team" });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("QUEUE-9, QUEUE-14: Assign to me asks first, then the order leaves New and appears in My Orders", async () => {
    const [order, other] = await app.placeOrders(2, () => ({ processing_mode: "standard" }));
    await listed(alice, "newOrder", other!);
    const page = await app.newPage();
    await app.openSignedIn(page, alice, "/admin/recent-order");
    await settled(page);
    await waitForRow(page, order!);
    // A Team member may assign, not delete (000 §6).
    expect(await toolbarLabels(page)).toEqual(["Assign to me"]);
    expect(await toolbarButtonDisabled(page, "Assign to me")).toBe(true);

    await select(page, order!);
    await toolbarButton(page, "Assign to me").click();
    expect(await confirmation(page)).toBe("Are you sure want to assigned orders.");
    // No keeps everything as it was.
    await answer(page, "No");
    expect(await page.$(row(order!))).not.toBeNull();

    await toolbarButton(page, "Assign to me").click();
    await confirmation(page);
    await answer(page, "Yes");
    await waitForToast(page, "success", "Order has been assigned successfully");
    await waitForRowGone(page, order!);
    expect(await page.$(row(other!))).not.toBeNull();

    await open(page, "/admin/my-order", "My Orders");
    await waitForRow(page, order!);
    expect(await cellText(page, order!, "Status")).toBe("Pending");
  });

  it("CARD-3: two browser sessions: Bob assigns an order to himself in his browser, and the row leaves Alice's New list through the live stream, without a reload (the badges: see auth-shell)", async () => {
    const [order, other] = await app.placeOrders(2, () => ({ processing_mode: "standard" }));
    await listed(alice, "newOrder", other!);
    const alicePage = await app.newPage();
    await app.openSignedIn(alicePage, alice, "/admin/recent-order");
    await settled(alicePage);
    await waitForRow(alicePage, order!);
    const bobPage = await app.newPage();
    await app.openSignedIn(bobPage, bob, "/admin/recent-order");
    await settled(bobPage);
    await waitForRow(bobPage, order!);
    await alicePage.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await alicePage.waitForSelector('html[data-live="open"]');
    await select(bobPage, order!);
    await toolbarButton(bobPage, "Assign to me").click();
    await confirmation(bobPage);
    await answer(bobPage, "Yes");
    await waitForToast(bobPage, "success", "Order has been assigned successfully");
    const answeredAt = Date.now();

    // The condition, not a time: how fast it comes is the live benchmark's (P4, npm run bench:live).
    await alicePage.waitForFunction((selector) => !document.querySelector(selector), { polling: 20, timeout: 30_000 }, row(order!));
    console.log(`QUEUE live: the claimed row left the other member's list ${Date.now() - answeredAt} ms after the answer`);
    // The other order is still there: the list was refetched, not emptied.
    expect(await alicePage.$(row(other!))).not.toBeNull();
    expect(await alicePage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });

  it("QUEUE-10: Move to Original Folder asks first, clears the assignment and returns the order to New", async () => {
    const [order] = await app.placeOrders(1, () => ({ processing_mode: "priority" }));
    const assigned = await app.api("PUT", "/admin/assign-order-status", { orderId: [order!], assignto: bob.name }, await app.login(bob));
    expect(assigned.body.status).toBe(1);
    await listed(bob, "myOrder", order!);

    const page = await app.newPage();
    await app.openSignedIn(page, bob, "/admin/my-order");
    await settled(page);
    await waitForRow(page, order!);
    expect(await toolbarLabels(page)).toEqual(["Move to Original Folder"]);
    await select(page, order!);
    await toolbarButton(page, "Move to Original Folder").click();
    expect(await confirmation(page)).toBe("Are you sure want to move orders to new orders.");
    await answer(page, "Yes");
    await waitForToast(page, "success", "Order has been moved to new orders successfully");
    await waitForRowGone(page, order!);

    // A priority order goes back to Priority, unassigned: anyone may assign it again.
    await open(page, "/admin/priority-order", "Priority Order");
    await waitForRow(page, order!);
    expect(await cellText(page, order!, "Status")).toBe("Priority");
    expect(await page.$eval(`${row(order!)} .queue-view-link`, (el) => el.getAttribute("href"))).toBe(`/admin/view-order/${order}`);
  });

  it("QUEUE-8: Delete Order (Admin) asks 'Are you sure you want to delete?', soft-deletes, and the counts follow", async () => {
    const [first, second, kept] = await app.placeOrders(3, () => ({ processing_mode: "standard" }));
    await listed(app.admin, "newOrder", kept!);
    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, "/admin/recent-order");
    await settled(page);
    await waitForRow(page, kept!);
    await page.waitForSelector('[data-count="deletedOrdersCount"]');
    const deletedBefore = (await shownCount(page, "deletedOrdersCount")) ?? 0;
    expect(await toolbarLabels(page)).toEqual(["Assign to me", "Delete Order"]);

    await select(page, first!);
    await select(page, second!);
    await toolbarButton(page, "Delete Order").click();
    expect(await confirmation(page)).toBe("Are you sure you want to delete?");
    await answer(page, "Yes");
    await waitForToast(page, "success", "Order has been deleted successfully");
    await waitForRowGone(page, first!);
    await waitForRowGone(page, second!);
    expect(await page.$(row(kept!))).not.toBeNull();
    // The side menu's Deleted Order badge counts them without a reload.
    await page.waitForFunction((n) => document.querySelector('[data-count="deletedOrdersCount"]')?.textContent === String(n), {}, deletedBefore + 2);

    // The row's own Delete does the same for one order.
    await page.locator(`${row(kept!)} button::-p-text(Delete)`).click();
    expect(await confirmation(page)).toBe("Are you sure you want to delete?");
    await answer(page, "Yes");
    await waitForToast(page, "success", "Order has been deleted successfully");
    await waitForRowGone(page, kept!);

    await open(page, "/admin/deleted-order", "Deleted Orders");
    for (const id of [first!, second!, kept!]) await waitForRow(page, id);
  });

  it("QUEUE-8: on My Orders only an Admin is offered Delete; a Manager is not", async () => {
    const [managers] = await app.placeOrders(1, () => ({ processing_mode: "standard" }));
    await app.api("PUT", "/admin/assign-order-status", { orderId: [managers!] }, await app.login(manager));
    await listed(manager, "myOrder", managers!);
    const page = await app.newPage();
    await app.openSignedIn(page, manager, "/admin/my-order");
    await settled(page);
    await waitForRow(page, managers!);
    expect(await toolbarLabels(page)).toEqual(["Move to Original Folder"]);
    expect(await page.$(`${row(managers!)} button`)).toBeNull();

    // On the other folders a Manager deletes like an Admin.
    await open(page, "/admin/recent-order", "New Order");
    expect(await toolbarLabels(page)).toEqual(["Assign to me", "Delete Order"]);

    const adminPage = await app.newPage();
    await app.openSignedIn(adminPage, app.admin, "/admin/my-order");
    await settled(adminPage);
    expect(await toolbarLabels(adminPage)).toEqual(["Move to Original Folder", "Delete Order"]);
  });

  it("QUEUE-11: Refunded it moves a refund to Completed Refund with the server's message; the Action column is View only", async () => {
    const [order] = await app.placeOrders(1, () => ({ processing_mode: "standard" }));
    await setStatus([order!], "Refund");
    await listed(alice, "refundOrder", order!);
    const page = await app.newPage();
    await app.openSignedIn(page, alice, "/admin/refund-order");
    await settled(page);
    await waitForRow(page, order!);
    expect(await cellText(page, order!, "Status")).toBe("Refund");
    expect(await page.$(`${row(order!)} button`)).toBeNull();
    expect(await toolbarLabels(page)).toEqual(["Refunded it"]);

    await select(page, order!);
    await toolbarButton(page, "Refunded it").click();
    // No confirmation for this one (000 §4 gives none).
    expect(await page.$("[role='alertdialog']")).toBeNull();
    await waitForToast(page, "success", "Order has been refunded successfully");
    // The refund list keeps refunded orders (server decision), now marked Completed Refund.
    await page.waitForFunction((selector) => {
      const cells = [...(document.querySelector(selector)?.querySelectorAll("td") ?? [])].map((td) => td.textContent);
      return cells.includes("Completed Refund");
    }, {}, row(order!));
    expect(await toolbarButtonDisabled(page, "Refunded it")).toBe(true);
  });

  it("QUEUE-9: when two members assign the same order, the loser is told who won and when, and the row leaves", async () => {
    const [contested] = await app.placeOrders(1, () => ({ processing_mode: "standard" }));
    await listed(bob, "newOrder", contested!);
    const page = await app.newPage();
    await app.openSignedIn(page, bob, "/admin/recent-order");
    await settled(page);
    await waitForRow(page, contested!);
    await select(page, contested!);
    await toolbarButton(page, "Assign to me").click();
    await confirmation(page);

    // Alice assigns it while Bob's confirmation is open.
    const won = await app.api("PUT", "/admin/assign-order-status", { orderId: [contested!], assignto: alice.name }, await app.login(alice));
    expect(won.body.status).toBe(1);

    await answer(page, "Yes");
    await page.waitForSelector(".toaster .toast-error");
    const message = await page.$eval(".toaster .toast-error span", (el) => el.textContent ?? "");
    expect(message).toMatch(new RegExp(`^Order ${contested} was assigned to Alice Team at \\d{2}:\\d{2}:\\d{2} UTC\\.$`));
    await waitForRowGone(page, contested!);
    expect(await page.$(".toaster .toast-success")).toBeNull();
  });
});
