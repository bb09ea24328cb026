import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  chromiumAvailable,
  currentPath,
  hasText,
  menuLabels,
  POLL,
  seriousViolations,
  shownCount,
  startE2eApp,
  waitForPath,
  waitForText,
  waitForToast,
  type E2eApp,
  type StaffMember,
} from "./support/index.ts";

const ready = chromiumAvailable() && (await postgresAvailable());

const EVERY_ENTRY = [
  "Awaiting Customer",
  "Awaiting Govt",
  "Future Orders",
  "Contact Customer",
  "Customer Called",
  "Deleted Order",
  "Order History",
  "Refunds",
  "Chargeback",
  "Audit",
  "Country Order List",
  "Manage Team",
  "Order Processed",
  "Manage Invoices",
  "Gateway Setting",
  "Service Levels",
  "Operations",
  "Change Password",
  "Logout",
];

const without = (...labels: string[]) => EVERY_ENTRY.filter((label) => !labels.includes(label));

const storedUser = (page: Page) => page.evaluate(() => localStorage.getItem("user"));

/** The messages under the sign-in fields, in page order. */
const fieldErrors = (page: Page) => page.$$eval(".field-error", (items) => items.map((el) => el.textContent ?? ""));

/** Whether the side menu (or the drawer holding it) is visible on screen now. */
const isMenuOnScreen = () => {
  const nav = document.querySelector<HTMLElement>('nav[aria-label="Main menu"]');
  if (!nav) return false;
  const box = nav.getBoundingClientRect();
  return nav.offsetParent !== null && box.right > 0 && box.width > 0;
};
const menuVisible = (page: Page) => page.evaluate(isMenuOnScreen);

describe.skipIf(!ready)("sign-in, session and the admin shell in a browser (AUTH, SHELL, CARD-3)", () => {
  let app: E2eApp;
  let manager: StaffMember;
  let telecaller: StaffMember;

  beforeAll(async () => {
    app = await startE2eApp();
    [manager, telecaller] = [await app.addStaff("Manager"), await app.addStaff("Telecaller")];
    await app.placeOrders(4);
  });

  afterEach(async () => {
    await app?.closePages();
  });

  afterAll(async () => {
    await app?.close();
  });

  describe("the sign-in page at / (AUTH-1, AUTH-2)", () => {
    it("shows the logo, 'Email ID' and 'Password' with their placeholders, and 'Sign In'", async () => {
      const page = await app.newPage();
      await page.goto(`${app.base}/`);
      await waitForText(page, "Sign In");
      expect(await hasText(page, "Email ID")).toBe(true);
      expect(await hasText(page, "Password")).toBe(true);
      expect(await page.$('input[placeholder="Your Email Address"]')).not.toBeNull();
      expect(await page.$('input[type="password"][placeholder="Password"]')).not.toBeNull();
      expect(await page.$("svg.logo")).not.toBeNull();
      expect(await page.title()).toBe("E-Travel Back Office");
    });

    it("validates on blur and on change, under each field, and does not submit while errors remain", async () => {
      const page = await app.newPage();
      await page.goto(`${app.base}/`);
      const email = 'input[placeholder="Your Email Address"]';
      const password = 'input[placeholder="Password"]';
      const blur = (selector: string) => page.$eval(selector, (el) => (el as HTMLInputElement).blur());
      // The sign-in screen is its own chunk: the page's load event can come before it renders.
      await page.waitForSelector(email);

      await page.focus(email);
      await blur(email);
      await waitForText(page, "Email Address is required");
      expect(await fieldErrors(page)).toEqual(["Email Address is required"]);

      await page.type(email, "not-an-address");
      await waitForText(page, "Invalid email address");
      expect(await fieldErrors(page)).toEqual(["Invalid email address"]);

      await page.type(email, "@example.com");
      await page.waitForFunction(() => document.querySelectorAll(".field-error").length === 0, POLL);

      await page.type(password, "x");
      expect(await fieldErrors(page)).toEqual([]);
      await page.keyboard.press("Backspace");
      await waitForText(page, "Password is required");
      expect(await fieldErrors(page)).toEqual(["Password is required"]);

      await page.click(email, { count: 3 });
      await page.keyboard.press("Backspace");
      await page.locator("form button[type=submit]").click();
      await waitForText(page, "Email Address is required");
      expect(await fieldErrors(page)).toEqual(["Email Address is required", "Password is required"]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await page.$$(".toaster .toast")).toHaveLength(0);
      expect(await currentPath(page)).toBe("/");
    });

    it("says what the server said when the password is wrong, and stays on sign-in (AUTH-3)", async () => {
      const page = await app.newPage();
      await page.goto(`${app.base}/`);
      await page.locator('input[placeholder="Your Email Address"]').fill(app.admin.email);
      await page.locator('input[placeholder="Password"]').fill("wrong-password");
      await page.locator("form button[type=submit]").click();
      await waitForToast(page, "error", "Invalid email or password.");
      expect(await currentPath(page)).toBe("/");
      expect(await storedUser(page)).toBeNull();
    });

    it("signs in: success toast with the server's message, the session stored under `user`, then /admin (AUTH-3, AUTH-4)", async () => {
      const page = await app.newPage();
      await app.signIn(page, app.admin);
      await waitForToast(page, "success", "Login successful.");
      const stored = JSON.parse((await storedUser(page))!) as { accessToken: string; name: string; type: string };
      expect(stored).toMatchObject({ name: app.admin.name, type: "Admin" });
      expect(stored.accessToken.split(".")).toHaveLength(3);
    });

    it("passes axe-core with no serious or critical violation, errors showing", async () => {
      const page = await app.newPage();
      await page.goto(`${app.base}/`);
      await page.locator("form button[type=submit]").click();
      await waitForText(page, "Password is required");
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  describe("the session (AUTH-4, AUTH-6, AUTH-7)", () => {
    it("survives a reload, and a signed-in visit to / goes straight to /admin", async () => {
      const page = await app.newPage();
      await app.signIn(page, manager);
      await page.reload();
      await waitForText(page, manager.name);
      expect(await currentPath(page)).toBe("/admin");
      await page.goto(`${app.base}/`);
      await waitForPath(page, "/admin");
    });

    it("an invalid stored token signs out cleanly: back to sign-in, the stored value removed", async () => {
      const page = await app.newPage();
      await page.goto(`${app.base}/`);
      await page.evaluate(() => localStorage.setItem("user", JSON.stringify({ accessToken: "not.a.token" })));
      await page.goto(`${app.base}/admin/recent-order`);
      await waitForPath(page, "/");
      await waitForText(page, "Sign In");
      expect(await storedUser(page)).toBeNull();
    });

    it("without a session, /admin and its deep links lead to sign-in", async () => {
      const page = await app.newPage();
      await page.goto(`${app.base}/admin/view-order/300001`);
      await waitForPath(page, "/");
    });

    it("logs out from the header's dropdown: session cleared, back to /", async () => {
      const page = await app.newPage();
      await app.signIn(page, manager);
      await page.locator(`button[aria-label="Account menu for ${manager.name}"]`).click();
      await page.locator('[role="menu"] [role="menuitem"][href="/logout"]').click();
      await waitForPath(page, "/");
      expect(await storedUser(page)).toBeNull();
      // Back does not reopen the console.
      await page.goto(`${app.base}/admin`);
      await waitForPath(page, "/");
    });

    it("logs out from the side menu's Logout entry", async () => {
      const page = await app.newPage();
      await app.openSignedIn(page, manager);
      await page.locator('nav[aria-label="Main menu"] a[href="/logout"]').click();
      await waitForPath(page, "/");
      expect(await storedUser(page)).toBeNull();
    });

    it("a 401 (the password changed elsewhere) shows the server's message, ends the session and returns to /", async () => {
      const member = await app.addStaff("Manager");
      const page = await app.newPage();
      await app.signIn(page, member);
      await waitForText(page, member.name);
      const token = await app.login(member);
      const changed = await app.api("POST", "/admin/change-password", { newPassword: "a-new-password" }, token);
      expect(changed.body.status).toBe(1);

      // Any call now answers 401: moving to another screen refetches the counts. (The live stream
      // opening refetches them too, so the page may already be on its way out: then no click.)
      const link = await page.$('nav[aria-label="Main menu"] a[href="/admin/deleted-order"]');
      await link?.click().catch(() => undefined);
      await waitForPath(page, "/");
      await page.waitForSelector(".toaster .toast-error");
      expect(await storedUser(page)).toBeNull();
    });
  });

  describe("the shell (SHELL-1..5)", () => {
    it("shows an Admin every menu entry in the spec's order, Order Processed included", async () => {
      const page = await app.newPage();
      await app.openSignedIn(page, app.admin);
      await page.waitForSelector('nav[aria-label="Main menu"]');
      expect(await menuLabels(page)).toEqual(EVERY_ENTRY);
    });

    it("hides Order Processed from a Manager", async () => {
      const page = await app.newPage();
      await app.openSignedIn(page, manager);
      await page.waitForSelector('nav[aria-label="Main menu"]');
      expect(await menuLabels(page)).toEqual(without("Order Processed", "Operations"));
    });

    it("hides Order History from a Telecaller, and the Admin and Manager entries", async () => {
      const page = await app.newPage();
      await app.openSignedIn(page, telecaller);
      await page.waitForSelector('nav[aria-label="Main menu"]');
      expect(await menuLabels(page)).toEqual(without("Order History", "Audit", "Manage Team", "Order Processed", "Gateway Setting", "Service Levels", "Operations", "Change Password"));
    });

    it("shows the welcome line with the name, the online indicator, logo and title, and a fixed tab title", async () => {
      const page = await app.newPage();
      await app.openSignedIn(page, manager);
      await waitForText(page, manager.name);
      expect(await hasText(page, "Online")).toBe(true);
      expect(await hasText(page, "E-Travel Back Office")).toBe(true);
      expect(await page.$("header svg.logo")).not.toBeNull();
      const welcome = await page.$eval(".welcome", (el) => el.textContent);
      expect(welcome).toBe(`Welcome, ${manager.name}`);
      expect(await page.title()).toBe("E-Travel Back Office");
    });

    it("SHELL-2, SHELL-4: the logo and title lead home: from a folder of the side menu, one click reaches the dashboard and its tiles", async () => {
      const page = await app.newPage();
      await app.openSignedIn(page, manager);
      await page.locator('nav[aria-label="Main menu"] a[href="/admin/called"]').click();
      await waitForPath(page, "/admin/called");
      const home = await page.$eval("header a.app-brand", (a) => ({ href: a.getAttribute("href"), name: a.getAttribute("aria-label") }));
      expect(home).toEqual({ href: "/admin", name: "E-Travel Back Office: dashboard" });
      await page.locator("header a.app-brand").click();
      await waitForPath(page, "/admin");
      await page.waitForSelector('[data-count="newOrdersCount"]');
      expect(await hasText(page, "New Orders")).toBe(true);
    });

    it("shows each folder's count as the server counts it, on tiles and badges", async () => {
      const page = await app.newPage();
      await app.openSignedIn(page, app.admin);
      const token = await app.login(app.admin);
      const counts = (await app.api("GET", "/admin/get-all-folder-count?userName=x", undefined, token)).body.data as Record<string, number>;
      await page.waitForSelector('[data-count="newOrdersCount"]');
      await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-count="newOrdersCount"]')?.textContent ?? ""), POLL);
      for (const [label, field] of [
        ["My Orders", "myOrdersCount"],
        ["New Orders", "newOrdersCount"],
        ["Priority Orders", "priorityOrdersCount"],
        ["Pending Orders", "pendingOrdersCount"],
        ["Completed Orders", "completedOrdersCount"],
      ] as const) {
        expect(await hasText(page, label)).toBe(true);
        expect(await shownCount(page, field)).toBe(counts[field]);
      }
      expect(counts.newOrdersCount! + counts.priorityOrdersCount!).toBe(4);
      for (const field of ["awaitingOrdersCount", "deletedOrdersCount", "allOrdersCount", "chargeBack"]) {
        expect(await shownCount(page, field)).toBe(counts[field]);
      }
    });

    it("highlights the active entry (aria-current) and refetches the counts on every route change (SHELL-5)", async () => {
      const page = await app.newPage();
      await app.openSignedIn(page, app.admin);
      await page.waitForSelector('[data-count="newOrdersCount"]');
      await new Promise((resolve) => setTimeout(resolve, 300));
      let countRequests = 0;
      page.on("request", (request) => {
        if (request.url().includes("/api/admin/get-all-folder-count")) countRequests += 1;
      });
      const link = 'nav[aria-label="Main menu"] a[href="/admin/called"]';
      await page.locator(link).click();
      await waitForPath(page, "/admin/called");
      for (let i = 0; i < 40 && countRequests === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(countRequests).toBeGreaterThanOrEqual(1);
      await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute("aria-current") === "page", POLL, link);
      const current = await page.$$eval('nav[aria-label="Main menu"] a[aria-current="page"]', (items) => items.map((a) => a.getAttribute("href")));
      expect(current).toEqual(["/admin/called"]);
    });

    it("at 1200 px shows the menu beside the content, with no drawer toggle", async () => {
      const page = await app.newPage({ width: 1200 });
      await app.openSignedIn(page, manager);
      await page.waitForSelector('nav[aria-label="Main menu"]');
      expect(await menuVisible(page)).toBe(true);
      expect(await page.$('button[aria-label="Open menu"]')).toBeNull();
    });

    it("at 991 px hides the menu in a drawer that the header toggle opens and the close button closes (SHELL-3)", async () => {
      const page = await app.newPage({ width: 991 });
      await app.openSignedIn(page, manager);
      await page.waitForSelector('button[aria-label="Open menu"]');
      expect(await menuVisible(page)).toBe(false);

      await page.locator('button[aria-label="Open menu"]').click();
      await page.waitForSelector('[role="dialog"] nav[aria-label="Main menu"]');
      await page.waitForFunction(() => document.querySelector('[role="dialog"]')?.contains(document.activeElement) === true, POLL);
      // The drawer slides in (200 ms): on screen once the slide has moved it in.
      await page.waitForFunction(isMenuOnScreen, { ...POLL, timeout: 30_000 });
      expect(await menuLabels(page)).toEqual(without("Order Processed", "Operations"));
      expect(await seriousViolations(page)).toEqual([]);

      await page.locator('button[aria-label="Close menu"]').click();
      await page.waitForFunction(() => !document.querySelector('[role="dialog"]'), POLL);
      expect(await menuVisible(page)).toBe(false);
      // Focus goes back to the toggle that opened it (restored on the next frame, hence the wait).
      await page.waitForFunction(() => document.activeElement?.getAttribute("aria-label") === "Open menu", { ...POLL, timeout: 30_000 });

      // Choosing an entry closes the drawer too.
      await page.locator('button[aria-label="Open menu"]').click();
      await page.locator('[role="dialog"] a[href="/admin/refund-order"]').click();
      await waitForPath(page, "/admin/refund-order");
      await page.waitForFunction(() => !document.querySelector('[role="dialog"]'), POLL);
    });

    it("passes axe-core on the dashboard with no serious or critical violation", async () => {
      const page = await app.newPage();
      await app.openSignedIn(page, app.admin);
      await page.waitForSelector('[data-count="newOrdersCount"]');
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  describe("live counts between two browser sessions (CARD-3, SHELL-5)", () => {
    it("an assignment made by another staff member changes the New Orders tile in both open pages, through the live stream, without a reload", async () => {
      const [orderId] = await app.placeOrders(1, () => ({ processing_mode: "Regular Processing" }));
      const watcher = await app.addStaff("Team");
      const assignee = await app.addStaff("Team");

      const first = await app.newPage();
      await app.signIn(first, watcher);
      const second = await app.newPage();
      await app.openSignedIn(second, assignee);

      const token = await app.login(app.admin);
      const before = (await app.api("GET", "/admin/get-all-folder-count", undefined, token)).body.data.newOrdersCount as number;
      for (const page of [first, second]) {
        await page.waitForFunction((n) => document.querySelector('[data-count="newOrdersCount"]')?.textContent === String(n), POLL, before);
        await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
      }
      // Both live streams are open before the change, so the update can only come through them.
      for (const page of [first, second]) await page.waitForSelector('html[data-live="open"]');

      const assigned = await app.api("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: assignee.name }, await app.login(assignee));
      expect(assigned.body.status).toBe(1);
      const answeredAt = Date.now();
      // The condition, not a time: how fast it comes is the live benchmark's (P4, npm run bench:live).
      await Promise.all(
        [first, second].map((page) =>
          page.waitForFunction((n) => document.querySelector('[data-count="newOrdersCount"]')?.textContent === String(n), { ...POLL, timeout: 30_000 }, before - 1),
        ),
      );
      console.log(`CARD-3: the New Orders tile changed in both pages ${Date.now() - answeredAt} ms after the answer`);
      for (const page of [first, second]) {
        expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      }
      expect(await shownCount(second, "myOrdersCount")).toBe(1);
    });
  });

  describe("the API serves the built app", () => {
    it("answers deep links with index.html, never cached; hashed assets are immutable; API and asset misses stay 404", async () => {
      const deep = await fetch(`${app.base}/admin/view-order/300001`);
      expect(deep.status).toBe(200);
      expect(deep.headers.get("cache-control")).toBe("no-cache");
      const html = await deep.text();
      expect(html).toContain('<div id="root">');
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
      const asset = await fetch(`${app.base}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await fetch(`${app.base}/track-order/300001`)).status).toBe(200);
      expect((await fetch(`${app.base}/assets/missing-file.js`)).status).toBe(404);
      const api = await fetch(`${app.base}/api/no-such-endpoint`);
      expect(api.status).toBe(404);
      expect(((await api.json()) as { status: number }).status).toBe(0);
    });
  });
});
