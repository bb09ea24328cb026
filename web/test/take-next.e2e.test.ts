import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, POLL, currentPath, seriousViolations, shownOrder, startE2eApp, toasts, waitForPath, waitForToast, type E2eApp, type StaffMember } from "./support/index.ts";

/*
 * Issue 27, Take next in Chromium: `n` on New takes the most urgent unassigned order (the
 * Priority one: its allowance is shorter), says why in the toast and opens it; `n` typed in the
 * search box is a letter. At capacity the toolbar's button is refused with its message, shown
 * beside the button, and nothing is taken. axe finds nothing serious.
 */

const ready = chromiumAvailable() && (await postgresAvailable());

const TAKEN = /^Order (\d+) is yours: (due in|overdue) .+, the most urgent unassigned Priority order\.$/;

describe.skipIf(!ready)("issue 27: Take next, the button and the n key", () => {
  let app: E2eApp;
  let member: StaffMember;
  let adminToken: string;

  beforeAll(async () => {
    app = await startE2eApp();
    adminToken = await app.login(app.admin);
    member = await app.addStaff("Team", { name: "Tia Takes" });
  });
  afterEach(async () => {
    await app?.closePages();
  });
  afterAll(async () => {
    await app?.close();
  });

  /** Waits until the API's lists show every order (the page's first read must see them). */
  const waitForOrders = async (token: string, orders: readonly string[]) => {
    for (;;) {
      const lists = await Promise.all(
        ["newOrder", "priorityOrder"].map((key) => app.api("GET", `/admin/get-orders-list/${key}?limit=All`, undefined, token)),
      );
      const shown = lists.flatMap((list) => (list.body.data as { id: string }[]).map((row) => row.id));
      if (orders.every((id) => shown.includes(id))) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const waitForCapacity = async (capacity: number | null) => {
    for (;;) {
      const info = await app.api("GET", `/admin/team-member-info/${member.id}`, undefined, adminToken);
      if (info.body.data.capacity === capacity && info.body.data.openOrders === 1) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it("issue 27: n takes the most urgent order and opens it, the reason in the toast; n in the search box is a letter; at capacity the button is refused with its message", async () => {
    const orders = await app.placeOrders(3, (_body, index) => ({ processing_mode: index === 1 ? "priority" : "standard" }));
    const priority = orders[1]!;
    const token = await app.login(member);
    await waitForOrders(token, orders);

    const page: Page = await app.newPage();
    await app.openSignedIn(page, member, "/admin/recent-order");
    await page.waitForSelector(".queue-table[aria-busy='false']");
    const button = await page.waitForSelector("xpath/.//button[normalize-space()='Take next']");
    expect(button).not.toBeNull();
    expect(await seriousViolations(page)).toEqual([]);

    // n typed in the search box stays a letter: nothing is taken.
    await page.keyboard.press("/");
    await page.keyboard.type("n");
    expect(await page.$eval(".queue-search input", (el) => el.value)).toBe("n");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Escape");
    expect(await currentPath(page)).toBe("/admin/recent-order");

    // n: the Priority order (due soonest) is taken, the toast says why, and it opens.
    await page.keyboard.press("n");
    await waitForPath(page, `/admin/view-order/${priority}`);
    const [toast] = (await toasts(page)).filter((shown) => shown.kind === "success");
    expect(toast?.message).toMatch(TAKEN);
    expect(TAKEN.exec(toast!.message)![1]).toBe(priority);
    await shownOrder(page, priority, "Pending", 20_000);
    const details = await app.api("GET", `/admin/get-orders-details/${priority}`, undefined, adminToken);
    expect(details.body.data).toMatchObject({ assign_to_id: member.id, process_status: "Pending" });

    // At capacity (1, and they hold 1): the button is refused, says so beside it, and takes nothing.
    const set = await app.api("POST", "/admin/set-team-member-capacity", { tmId: member.id, capacity: 1 }, adminToken);
    expect(set.body.status).toBe(1);
    await waitForCapacity(1);
    const again = await app.newPage();
    await app.openSignedIn(again, member, "/admin/recent-order");
    await again.waitForSelector(".queue-table[aria-busy='false']");
    const takeNext = await again.waitForSelector("xpath/.//button[normalize-space()='Take next']");
    await takeNext!.click();
    const refusal = "You have 1 open order, your capacity. Finish one to take the next.";
    await waitForToast(again, "error", refusal);
    await again.waitForFunction((text) => document.querySelector(".take-next-refusal")?.textContent === text, POLL, refusal);
    expect(await currentPath(again)).toBe("/admin/recent-order");
    expect(await seriousViolations(again)).toEqual([]);
    for (const other of orders.filter((id) => id !== priority)) {
      const answer = await app.api("GET", `/admin/get-orders-details/${other}`, undefined, adminToken);
      expect(answer.body.data.process_status).toBe("New");
    }
  });
});
