import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { postgresAvailable } from "@etd/infra/test-database";
import { Secret, TOTP } from "otpauth";
import type { Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  chromiumAvailable,
  currentPath,
  hasText,
  POLL,
  seriousViolations,
  startE2eApp,
  toasts,
  waitForPath,
  waitForText,
  waitForToast,
  type E2eApp,
  type StaffMember,
} from "./support/index.ts";

/*
 * Two-factor sign-in in a real browser against the real API (issue 16 part A; AUTH-1..4): a
 * member enrols from the "Two-factor sign-in" page with the key it shows, and signs in with the
 * password and then a code from the app; used and wrong codes are refused with the server's
 * words; a recovery code works once; a Manager, whom REQUIRE_2FA_FOR obliges, sees only the
 * setup page until enrolled; an Admin resets a member's second factor from Manage Team.
 *
 * The authenticator app is `otpauth` computing codes from the key the page shows, as a phone
 * would. The API accepts a code one 30-second step either side of now, once: each sign-in below
 * uses a later step than the one before it (codeAfter).
 */

const ready = chromiumAvailable() && (await postgresAvailable());

const CODE_HINT = "Enter the 6-digit code from your authenticator app.";
const CODE_INVALID = "That code is not valid. Please try again.";
const CODE_USED = "That code has already been used. Please wait for the next one.";
const RECOVERY_INVALID = "That recovery code is not valid.";
const REQUIRED = "Two-factor sign-in is required for your role. Please set it up to continue.";

const CODE_FIELD = 'input[name="code"]';
const RECOVERY_FIELD = 'input[name="recoveryCode"]';

/** The member's authenticator app: codes for the key shown at enrolment. */
const authenticator = (secret: string) => new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });

/** The 30-second step a timestamp falls in. */
const stepOf = (ms: number) => Math.floor(ms / 30_000);

/**
 * An app's code of a step later than `lastStep` that the API still accepts (now or the next step),
 * with that step. Each accepted code must come from a later step than the one before.
 */
const codeAfter = (secret: string, lastStep: number): { code: string; step: number } => {
  const now = Date.now();
  const step = Math.max(stepOf(now), lastStep + 1);
  if (step > stepOf(now) + 1) throw new Error("no code is both unused and accepted yet");
  return { code: authenticator(secret).generate({ timestamp: step * 30_000 }), step };
};

/** Six digits that none of the codes the API would accept now equals. */
const wrongCode = (secret: string) => {
  const app = authenticator(secret);
  const now = Date.now();
  const valid = new Set([-1, 0, 1, 2].map((offset) => app.generate({ timestamp: now + offset * 30_000 })));
  for (let n = 0; ; n += 1) {
    const candidate = String(123_456 + n * 7_919).padStart(6, "0").slice(-6);
    if (!valid.has(candidate)) return candidate;
  }
};

/** Types into an empty field as a user would. */
const type = async (page: Page, selector: string, text: string) => {
  await page.waitForSelector(selector);
  await page.focus(selector);
  await page.keyboard.type(text);
};

const expectToast = async (page: Page, kind: "success" | "error", message: string) => {
  try {
    await waitForToast(page, kind, message);
  } catch (error) {
    throw new Error(`no ${kind} toast "${message}"; showing: ${JSON.stringify(await toasts(page))}`, { cause: error });
  }
};

/** The first step of sign-in through the form (AUTH-1): e-mail, password, Sign In. */
const passwordStep = async (app: E2eApp, page: Page, member: Pick<StaffMember, "email" | "password">) => {
  await page.goto(`${app.base}/`);
  await type(page, 'input[placeholder="Your Email Address"]', member.email);
  await type(page, 'input[placeholder="Password"]', member.password);
  await page.keyboard.press("Enter");
};

/** Waits for the second step, as the server's answer opens it. */
const waitForSecondStep = async (page: Page) => {
  await page.waitForSelector(CODE_FIELD);
  await waitForText(page, CODE_HINT);
};

/** Replaces the field's text with `code` and presses Enter, as a user would. */
const submitCode = async (page: Page, selector: string, code: string) => {
  await page.waitForSelector(selector);
  await page.focus(selector);
  await page.keyboard.down("Control");
  await page.keyboard.press("a");
  await page.keyboard.up("Control");
  await page.keyboard.press("Backspace");
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
};

const signOut = async (page: Page, member: StaffMember) => {
  await page.locator(`button[aria-label="Account menu for ${member.name}"]`).click();
  await page.locator('[role="menu"] [role="menuitem"][href="/logout"]').click();
  await waitForPath(page, "/");
};

const menuShown = (page: Page) => page.evaluate(() => document.querySelector('nav[aria-label="Main menu"]') !== null);

const storedToken = (page: Page) => page.evaluate(() => (JSON.parse(localStorage.getItem("user") ?? "{}") as { accessToken?: string }).accessToken);

/**
 * Enrols the member whose page is open at /admin/two-factor: Set up, the key read off the page,
 * a code from it, then the recovery codes shown once. Answers the key, the accepted step and the codes.
 */
const enrol = async (page: Page, options: { checkAxe?: boolean; downloadDir?: string } = {}) => {
  const signedInWith = await storedToken(page);
  await page.locator("main button::-p-text(Set up)").click();
  await page.waitForSelector("main .two-factor-secret");
  const qr = await page.$eval("main img.two-factor-qr", (img) => ({ alt: img.getAttribute("alt") ?? "", src: img.getAttribute("src") ?? "" }));
  expect(qr.alt).toMatch(/QR code/);
  expect(qr.src).toMatch(/^data:image\/svg\+xml;base64,/);
  const secret = (await page.$eval("main .two-factor-secret", (el) => el.textContent ?? "")).replace(/\s+/g, "");
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  if (options.checkAxe) expect(await seriousViolations(page)).toEqual([]);

  const { code, step } = codeAfter(secret, 0);
  await submitCode(page, CODE_FIELD, code);
  await expectToast(page, "success", "Two-factor sign-in is on. You have been signed out everywhere else.");
  await page.waitForSelector("main .two-factor-code-list li");
  // Every session opened with the password alone has ended; this page goes on under a new token.
  expect(await storedToken(page)).not.toBe(signedInWith);
  const codes = await page.$$eval("main .two-factor-code-list li", (items) => items.map((li) => li.textContent?.trim() ?? ""));
  expect(codes).toHaveLength(10);
  for (const recovery of codes) expect(recovery).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/i);
  if (options.checkAxe) expect(await seriousViolations(page)).toEqual([]);

  if (options.downloadDir) {
    await page.locator("main button::-p-text(Download codes)").click();
    const file = path.join(options.downloadDir, "etd-back-office-recovery-codes.txt");
    const deadline = Date.now() + 30_000;
    let text = "";
    while (Date.now() < deadline) {
      text = await readFile(file, "utf8").catch(() => "");
      if (codes.every((recovery) => text.includes(recovery))) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(codes.every((recovery) => text.includes(recovery)), `the downloaded file holds every code: ${text}`).toBe(true);
  }

  await page.locator("main button::-p-text(I have saved these codes)").click();
  return { secret, step, codes };
};

describe.skipIf(!ready)("two-factor sign-in in a browser (issue 16 part A; AUTH-1..4)", () => {
  let app: E2eApp;
  let team: StaffMember;
  let manager: StaffMember;
  let downloadDir: string;
  /** The Team member's key, the last step the API accepted from them, and their recovery codes. */
  let teamKey = { secret: "", step: 0, codes: [] as string[] };

  beforeAll(async () => {
    // REQUIRE_2FA_FOR: Managers must use two-factor sign-in; Team members may.
    app = await startE2eApp({ settings: { REQUIRE_2FA_FOR: "Manager" } });
    team = await app.addStaff("Team", { name: "Tess Team" });
    manager = await app.addStaff("Manager", { name: "Max Manager" });
    downloadDir = await mkdtemp(path.join(tmpdir(), "etd-2fa-download-"));
  });

  afterEach(async () => {
    await app?.closePages();
  });

  afterAll(async () => {
    await app?.close();
    if (downloadDir) await rm(downloadDir, { recursive: true, force: true });
  });

  it("a Team member enrols from the page reached by keyboard from the header, signs out, then signs in with password and code and lands on /admin (AUTH-3, issue 16)", async () => {
    // Its own context, which saves downloads where the test can read them ("Download codes").
    const context = await app.browser.createBrowserContext({ downloadBehavior: { policy: "allow", downloadPath: downloadDir } });
    try {
      await enrolAndSignIn(await context.newPage());
    } finally {
      await context.close();
    }
  });

  const enrolAndSignIn = async (page: Page) => {
    await page.setViewport({ width: 1200, height: 900 });
    page.setDefaultTimeout(10_000);
    await app.openSignedIn(page, team);
    await waitForText(page, team.name);
    // The account menu, by keyboard: the trigger, Enter, the first item is the page.
    await page.focus(`button[aria-label="Account menu for ${team.name}"]`);
    await page.keyboard.press("Enter");
    await page.waitForSelector('[role="menu"] [role="menuitem"][href="/admin/two-factor"]');
    expect(await page.$eval('[role="menu"] [role="menuitem"][href="/admin/two-factor"]', (el) => el.textContent)).toBe("Two-factor sign-in");
    await page.keyboard.press("Enter");
    await waitForPath(page, "/admin/two-factor");
    await waitForText(page, "Off");
    // Not required for a Team member: the menu stays.
    expect(await menuShown(page)).toBe(true);

    teamKey = await enrol(page, { checkAxe: true, downloadDir });
    await waitForText(page, "On");
    expect(await hasText(page, "Recovery codes left")).toBe(true);
    // Shown once: back on the page, the codes are gone.
    expect(await page.$("main .two-factor-code-list")).toBeNull();
    await signOut(page, team);

    await passwordStep(app, page, team);
    await waitForSecondStep(page);
    // Still on sign-in, and nothing stored: the token comes only after the second step.
    expect(await currentPath(page)).toBe("/");
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
    const field = await page.$eval(CODE_FIELD, (el) => ({ autocomplete: el.getAttribute("autocomplete"), inputMode: el.getAttribute("inputmode") }));
    expect(field).toEqual({ autocomplete: "one-time-code", inputMode: "numeric" });
    // Its own validation, worded like AUTH-2's, before anything is sent.
    await submitCode(page, CODE_FIELD, "12");
    await waitForText(page, "Authentication code must be 6 digits");
    expect(await seriousViolations(page)).toEqual([]);

    const next = codeAfter(teamKey.secret, teamKey.step);
    await submitCode(page, CODE_FIELD, next.code);
    await waitForPath(page, "/admin");
    await expectToast(page, "success", "Login successful.");
    teamKey = { ...teamKey, step: next.step };
    expect(await storedToken(page)).toMatch(/^[^.]+\.[^.]+\.[^.]+$/);
  };

  it("refuses the same code a second time, and a wrong code, with the server's words (issue 16)", async () => {
    const page = await app.newPage();
    await passwordStep(app, page, team);
    await waitForSecondStep(page);
    const used = authenticator(teamKey.secret).generate({ timestamp: teamKey.step * 30_000 });
    await submitCode(page, CODE_FIELD, used);
    await expectToast(page, "error", CODE_USED);
    await submitCode(page, CODE_FIELD, wrongCode(teamKey.secret));
    await expectToast(page, "error", CODE_INVALID);
    expect(await currentPath(page)).toBe("/");
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
  });

  it("a recovery code signs in once; the second time it is refused (issue 16)", async () => {
    const page = await app.newPage();
    const recovery = teamKey.codes[0]!;
    await passwordStep(app, page, team);
    await waitForSecondStep(page);
    await page.locator("form button::-p-text(Use a recovery code instead)").click();
    // Typed as a person might: capitals, no hyphen.
    await submitCode(page, RECOVERY_FIELD, recovery.replace("-", "").toUpperCase());
    await waitForPath(page, "/admin");
    await expectToast(page, "success", "Login successful.");
    await signOut(page, team);

    await passwordStep(app, page, team);
    await waitForSecondStep(page);
    await page.locator("form button::-p-text(Use a recovery code instead)").click();
    await submitCode(page, RECOVERY_FIELD, recovery);
    await expectToast(page, "error", RECOVERY_INVALID);
    expect(await currentPath(page)).toBe("/");
    // Back to sign in: the first step again, the address kept.
    await page.locator("form button::-p-text(Back to sign in)").click();
    await page.waitForSelector('input[placeholder="Password"]');
    expect(await page.$eval('input[placeholder="Your Email Address"]', (el) => el.value)).toBe(team.email);
  });

  it("a Manager (REQUIRE_2FA_FOR) lands on the setup page and cannot reach the queue until enrolled; then /admin works (issue 16)", async () => {
    const page = await app.newPage();
    await passwordStep(app, page, manager);
    await waitForPath(page, "/admin/two-factor");
    await waitForText(page, REQUIRED);
    expect(await menuShown(page)).toBe(false);
    // The header still offers Logout.
    await page.locator(`button[aria-label="Account menu for ${manager.name}"]`).click();
    await page.waitForSelector('[role="menu"] [role="menuitem"][href="/logout"]');
    await page.keyboard.press("Escape");

    const token = (await storedToken(page))!;
    const queue = await app.api("GET", "/admin/get-orders-list/newOrder", undefined, token);
    expect({ status: queue.status, message: queue.body.message }).toEqual({ status: 403, message: REQUIRED });

    // The address bar: /admin and the New queue both show the setup page only.
    for (const target of ["/admin", "/admin/recent-order"]) {
      await page.goto(`${app.base}${target}`);
      await waitForPath(page, "/admin/two-factor");
      await waitForText(page, REQUIRED);
      expect(await menuShown(page)).toBe(false);
    }

    await enrol(page);
    await waitForPath(page, "/admin");
    expect(await menuShown(page)).toBe(true);
    await page.goto(`${app.base}/admin/recent-order`);
    await waitForText(page, "New Order");
    expect(await currentPath(page)).toBe("/admin/recent-order");
    // The page went on under the token enrolment answered; the one it signed in with has ended.
    expect((await app.api("GET", "/admin/get-orders-list/newOrder", undefined, (await storedToken(page)))).status).toBe(200);
    expect((await app.api("GET", "/admin/get-orders-list/newOrder", undefined, token)).status).toBe(401);
  });

  it("a required member whose stored login does not say so is sent to the setup page by the API's 403 (issue 16)", async () => {
    const other = await app.addStaff("Manager", { name: "Mia Manager" });
    const page = await app.newPage();
    // A session stored without the sign-in page's flag, as if REQUIRE_2FA_FOR changed after sign-in.
    await app.openSignedIn(page, other, "/admin/recent-order");
    await waitForPath(page, "/admin/two-factor");
    await waitForText(page, REQUIRED);
    expect(await menuShown(page)).toBe(false);
  });

  it("an Admin resets the Team member's two-factor sign-in on Manage Team; the member then signs in with the password alone (ADMIN-1, issue 16)", async () => {
    const page = await app.newPage();
    await app.openSignedIn(page, app.admin, "/admin/manage-team");
    const row = async (name: string) =>
      page.$$eval(
        "main table tbody tr",
        (rows, wanted) => rows.map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent?.trim() ?? "")).find((cells) => cells[1] === wanted),
        name,
      );
    await page.waitForFunction(() => document.querySelector('button[aria-label^="Reset 2FA for"]') !== null, POLL);
    const headers = await page.$$eval("main table thead th", (cells) => cells.map((c) => c.textContent?.trim()));
    expect(headers).toEqual(["#", "Name", "Email", "Password", "Type", "2FA", "Open orders", "Action"]);
    expect((await row(team.name))?.[5]).toBe("On");
    expect((await row(app.admin.name))?.[5]).toBe("Off");
    // Only members who have it can be reset.
    expect(await page.$(`button[aria-label="Reset 2FA for ${app.admin.name}"]`)).toBeNull();

    await page.locator(`button[aria-label="Reset 2FA for ${team.name}"]`).click();
    await page.waitForSelector('[role="alertdialog"]');
    expect(await page.$eval('[role="alertdialog"] p', (el) => el.textContent)).toBe(
      `Reset two-factor sign-in for ${team.name}? They will sign in with their password and set it up again.`,
    );
    await page.locator('[role="alertdialog"] button::-p-text(Yes)').click();
    await expectToast(page, "success", "Two-factor sign-in has been reset.");
    await page.waitForFunction((name) => !document.querySelector(`button[aria-label="Reset 2FA for ${name}"]`), POLL, team.name);
    expect((await row(team.name))?.[5]).toBe("Off");

    const member = await app.newPage();
    await app.signIn(member, team);
    await expectToast(member, "success", "Login successful.");
  });
});
