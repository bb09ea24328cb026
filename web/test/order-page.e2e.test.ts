import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { OrderDetails } from "@etd/contract";
import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, orderPages, POLL, setInputValue, TINY_PDF, shownOrder, seriousViolations, startE2eApp, waitForText, waitForToast, type E2eApp, type StaffMember } from "./support/index.ts";

/*
 * The order page in a real browser against the real API (issue 11; 001 §2 "View order"): its
 * forms and their messages, the remark flags' effect, the move buttons, the defence packs as
 * PDFs, the Audit tab, and axe in every status. What is checked is what staff see on the page,
 * and where an action has an effect elsewhere (a queue, a PDF), that effect.
 */

const ready = chromiumAvailable() && (await postgresAvailable());

let pdftotextAvailable = true;
try {
  execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
} catch {
  pdftotextAvailable = false;
}

// --- the page as a user drives it -------------------------------------------------------------

/** Waits until the page shows this order, at `status` when given. */

const button = (page: Page, scope: string, label: string) => page.locator(`${scope} button::-p-text(${label})`);

/** The labels of the buttons in `scope`, exactly as shown. */
const buttonLabels = (page: Page, scope: string) => page.$$eval(`${scope} button`, (buttons) => buttons.map((b) => b.textContent?.trim() ?? ""));

/** The field errors in a form, as shown. */
const fieldErrors = (page: Page, scope: string) => page.$$eval(`${scope} .field-error`, (errors) => errors.map((e) => e.textContent ?? ""));

/** Empties a text input the way a user does (select all, delete), so React hears it. */
const clear = async (page: Page, selector: string) => {
  await page.click(selector, { count: 3 });
  await page.keyboard.press("Backspace");
};

const sectionHeadings = (page: Page) => page.$$eval(".order-page h2", (headings) => headings.map((h) => h.textContent?.trim() ?? ""));

/** Orders due today in standard mode start in New (priority ones in Priority). */
const standard = () => ({ processing_mode: "standard" as const });

describe.skipIf(!ready)("the order page (issue 11)", () => {
  let app: E2eApp;
  let adminToken: string;
  let manager: StaffMember;
  let team: StaffMember;
  let scratch: string;

  const setStatus = async (orderId: string, updatingStatus: string) => {
    const result = await app.api("PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus }, adminToken);
    expect(result.body.status, result.body.message).toBe(1);
  };

  const details = async (orderId: string): Promise<OrderDetails> => (await app.api("GET", `/admin/get-orders-details/${orderId}`, undefined, adminToken)).body.data as OrderDetails;

  const openOrder = (member: StaffMember, orderId: string, status?: string) => orderPages(app, () => adminToken).open(member, orderId, status);

  beforeAll(async () => {
    app = await startE2eApp();
    adminToken = await app.login(app.admin);
    manager = await app.addStaff("Manager", { name: "Maria Manager" });
    team = await app.addStaff("Team", { name: "Tom Team" });
    scratch = await mkdtemp(path.join(tmpdir(), "etd-order-page-"));
  });
  afterEach(async () => {
    await app?.closePages();
  });
  afterAll(async () => {
    await app?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("ORDER-1: /admin/view-order/{orderId} shows the order's sections in the spec's order, the working ones around the record", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    const page = await openOrder(manager, orderId!, "New");
    const headings = await sectionHeadings(page);
    const at = (name: string) => headings.indexOf(name);
    for (const name of ["Service level", "Email History", "Upload Document", "Order Details", "Download History", "Add Comment Below", "Comment History"]) expect(at(name), name).toBeGreaterThanOrEqual(0);
    // Issue 27's Service level panel (ours) comes first; the spec's sections keep their order after it.
    expect(at("Service level")).toBe(0);
    expect(at("Email History")).toBe(1);
    expect(at("Upload Document")).toBe(2);
    expect(at("Order Details")).toBe(3);
    expect(at("Download History")).toBeLessThan(at("Add Comment Below"));
    expect(at("Comment History")).toBe(headings.length - 1);
  });

  it("UX review: links above the sections bring Add Comment and Move Order into view and start the keyboard there; a read-only viewer is offered neither", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    const page = await openOrder(manager, orderId!, "New");
    const links = () => page.$$eval(".order-section-links a", (anchors) => anchors.map((a) => a.textContent));
    expect(await links()).toEqual(["Upload Document", "Email History", "Download History", "Add Comment", "Move Order", "Comment History"]);
    for (const [link, heading] of [["Add Comment", "Add Comment Below"], ["Move Order", "Move Order"]] as const) {
      await page.locator(`.order-section-links a::-p-text(${link})`).click();
      await page.waitForFunction((text) => document.activeElement?.textContent?.trim() === text, POLL, heading);
      const seen = await page.evaluate(() => {
        const box = document.activeElement!.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, header: document.querySelector("header")!.getBoundingClientRect().bottom, height: innerHeight };
      });
      expect(seen.top, link).toBeGreaterThanOrEqual(seen.header);
      expect(seen.bottom, link).toBeLessThanOrEqual(seen.height);
    }
    // Tab from the comment's heading reaches its text box first.
    await page.locator(".order-section-links a::-p-text(Add Comment)").click();
    await page.waitForFunction(() => document.activeElement?.id === "remarks-title", POLL);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => [document.activeElement?.tagName, document.activeElement?.getAttribute("name"), document.activeElement?.closest("[data-section]")?.getAttribute("data-section")])).toEqual(["TEXTAREA", "remark", "remarks"]);

    // Someone else's order is read-only for a Team member: no form to jump to.
    const assigned = await app.api("PUT", "/admin/assign-order-status", { orderId: [orderId], assignto: "x" }, await app.login(manager));
    expect(assigned.body.status).toBe(1);
    const readOnly = await openOrder(team, orderId!);
    await readOnly.waitForSelector(".order-read-only");
    expect(await readOnly.$$eval(".order-section-links a", (anchors) => anchors.map((a) => a.textContent))).toEqual(["Upload Document", "Email History", "Download History", "Comment History"]);
  });

  it("ORDER-10, QUEUE-5: an empty remark says 'Please enter your remark'; a remark with the Refund flag moves the order to the Refunds queue (whose View link opens it) and into Comment History", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    const page = await openOrder(team, orderId!, "New");
    await button(page, ".order-remark-form", "Submit").click();
    expect(await fieldErrors(page, ".order-remark-form")).toEqual(["Please enter your remark"]);

    await page.locator(".order-remark-form textarea").fill("Customer asked for a refund by phone");
    await page.locator(".order-remark-form input[name=statusRefund]").click();
    await button(page, ".order-remark-form", "Submit").click();
    await waitForToast(page, "success", "Remark has been added successfully");
    // The page itself follows: the order is now a refund, the comment is listed with its author.
    await shownOrder(page, orderId!, "Refund");
    await page.waitForFunction(() => document.querySelector(".comment-history")?.textContent?.includes("Tom Team"), POLL);
    expect(await page.$eval(".order-remark-form textarea", (el) => (el).value)).toBe("");

    // …and the Refunds queue lists it.
    await page.goto(`${app.base}/admin/refund-order`);
    await page.waitForSelector(`.queue-table tbody tr[data-order-id="${orderId}"]`);
    // Its View link opens the order page again (QUEUE-5's Action column).
    await page.locator(`.queue-table tbody tr[data-order-id="${orderId}"] a.queue-view-link`).click();
    await shownOrder(page, orderId!, "Refund");
  });

  it("ORDER-11: each move button moves the order, then hides itself; Delete asks first and is offered to Admin and Manager only", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    const page = await openOrder(app.admin, orderId!, "New");
    const moves = [
      ["Awaiting Response", "Awaiting"],
      ["Completed Refunds", "CompletedRefund"],
      ["Completed Orders", "Completed"],
      ["Contact Customer", "ContactCustomer"],
      ["Awaiting Govt", "AwaitingGovt"],
      ["Customer Called", "CustomerCalled"],
      ["ChargeBack", "ChargeBack"],
    ] as const;
    const all = ["Awaiting Response", "Completed Refunds", "Completed Orders", "Delete", "Contact Customer", "Awaiting Govt", "Customer Called", "ChargeBack"];
    expect(await buttonLabels(page, ".order-move-buttons")).toEqual(all);
    for (const [label, status] of moves) {
      await button(page, ".order-move-buttons", label).click();
      await shownOrder(page, orderId!, status);
      expect(await buttonLabels(page, ".order-move-buttons")).toEqual(all.filter((l) => l !== label));
      expect((await details(orderId!)).process_status).toBe(status);
    }

    await button(page, ".order-move-buttons", "Delete").click();
    await page.waitForSelector("[role='alertdialog']");
    expect(await page.$eval("[role='alertdialog'] p", (el) => el.textContent)).toBe("Are you sure you want to delete?");
    await page.locator("[role='alertdialog'] button::-p-text(Yes)").click();
    await waitForToast(page, "success", "Order has been deleted successfully");
    await shownOrder(page, orderId!, "Deleted");
    expect(await buttonLabels(page, ".order-move-buttons")).toEqual(all.filter((l) => l !== "Delete"));

    // A Team member has every move but Delete.
    const [other] = await app.placeOrders(1, standard);
    const teamPage = await openOrder(team, other!, "New");
    expect(await buttonLabels(teamPage, ".order-move-buttons")).toEqual(all.filter((l) => l !== "Delete"));
  });

  it("ORDER-13: no defence packs while New; once Completed, the transaction form's messages, then Defence Pack 1 opens a PDF naming the order and its evidence", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    let page = await openOrder(manager, orderId!, "New");
    expect(await page.$(".order-defence")).toBeNull();
    await page.close();

    await setStatus(orderId!, "completed");
    page = await openOrder(manager, orderId!, "Completed");
    expect(await buttonLabels(page, ".order-defence > .toolbar")).toEqual(["Defence Pack 1", "Defence Pack 2", "Enter Transaction Details"]);

    await button(page, ".order-defence", "Enter Transaction Details").click();
    await button(page, ".order-transaction-form", "Save Transaction Details").click();
    expect(await fieldErrors(page, ".order-transaction-form")).toEqual(["Please enter your Transaction Id", "Please enter your Merchant Name"]);
    await page.locator(".order-transaction-form input[name=transactionId]").fill("TX-778899");
    await page.locator(".order-transaction-form input[name=merchantName]").fill("Acme Travel Payments");
    await button(page, ".order-transaction-form", "Save Transaction Details").click();
    await waitForToast(page, "success", "Transaction details have been saved successfully");
    expect(await fieldErrors(page, ".order-transaction-form")).toEqual([]);

    // The PDF as the page received it (the blob it hands the new tab), and the tab the click opened.
    await page.evaluate(() => {
      const create = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (blob: Blob | MediaSource) => {
        (window as unknown as { lastBlob?: Blob }).lastBlob = blob as Blob;
        return create(blob);
      };
    });
    const newTab = app.browser.waitForTarget((target) => target.opener() === page.target());
    await button(page, ".order-defence", "Defence Pack 1").click();
    const tab = await newTab;
    await page.waitForFunction(() => (window as unknown as { lastBlob?: Blob }).lastBlob !== undefined, POLL);
    const pdf = await page.evaluate(async () => {
      const blob = (window as unknown as { lastBlob: Blob }).lastBlob;
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = "";
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return { type: blob.type, base64: btoa(binary) };
    });
    expect(pdf.type).toBe("application/pdf");
    const deadline = Date.now() + 30_000;
    while (!tab.url().startsWith("blob:") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(tab.url()).toMatch(/^blob:/);

    if (pdftotextAvailable) {
      const file = path.join(scratch, `${orderId}-pack1.pdf`);
      await writeFile(file, Buffer.from(pdf.base64, "base64"));
      const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
      const order = await details(orderId!);
      expect(text).toContain(orderId!);
      expect(text).toContain("TX-778899");
      expect(text).toContain("Acme Travel Payments");
      expect(text).toContain(order.email);
    }
  });

  it("ORDER-3: the upload form's messages, then a real upload shows as the current file and in Email History", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    const page = await openOrder(manager, orderId!, "New");
    const order = await details(orderId!);
    expect(await page.$eval(".order-upload-form input[readonly]", (el) => (el).value)).toBe(orderId);
    expect(await page.$eval(".order-upload-form input[name=email]", (el) => (el).value)).toBe(order.email);
    expect(await page.$eval(".order-upload-form input[type=file]", (el) => el.getAttribute("accept"))).toContain("image/*");
    expect(await page.$eval("[data-section=upload-document]", (el) => el.textContent)).toContain("No file uploaded yet");
    // UX review: with nothing to mail, Resend Mail and Sent Mail are off and say why, instead of failing when pressed.
    const mailButtons = () =>
      page.$$eval("[data-section=email-history] .order-inline-form button, .order-reminder-form button", (buttons) =>
        buttons.map((b) => [b.textContent, b.hasAttribute("disabled"), b.getAttribute("aria-describedby") ? document.getElementById(b.getAttribute("aria-describedby")!)?.textContent : null]),
      );
    const why = "No document to mail yet: upload one first.";
    expect(await mailButtons()).toEqual([
      ["Resend Mail via AWS", true, why],
      ["Resend Mail via Sendgrid", true, why],
      ["Sent Mail", true, why],
    ]);

    await clear(page, ".order-upload-form input[name=email]");
    await button(page, ".order-upload-form", "Submit via AWS").click();
    expect(await fieldErrors(page, ".order-upload-form")).toEqual(["Please enter your email", "File is required"]);

    await page.locator(".order-upload-form input[name=email]").fill("traveller.copy@example.com");
    const file = path.join(scratch, `visa-${orderId}.pdf`);
    await writeFile(file, TINY_PDF);
    const input = await page.$(".order-upload-form input[type=file]");
    await (input as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
    await button(page, ".order-upload-form", "Submit via Sendgrid").click();
    await waitForToast(page, "success", "Document has been uploaded successfully and the mail is on its way");
    expect(await fieldErrors(page, ".order-upload-form")).toEqual([]);
    // ORDER-14: the current file is a link once HEAD says it is there; Email History lists the mail.
    await page.waitForSelector("[data-section=upload-document] a.order-document-link");
    expect(await page.$eval("[data-section=upload-document] a.order-document-link", (a) => a.getAttribute("href"))).toContain(`/uploads/docs/${orderId}/`);
    await page.waitForFunction(() => document.querySelectorAll(".order-email-history tbody tr td").length > 1, POLL);
    const cells = await page.$$eval(".order-email-history tbody tr:first-child td", (tds) => tds.map((td) => td.textContent ?? ""));
    expect(cells[1]).toBe(orderId);
    expect(cells[4]).toBe("Sendgrid");
    expect(cells[5]).toBe("No");
    await page.waitForFunction(() => document.querySelectorAll(".order-reminder-form button:not([disabled])").length === 1, POLL);
    expect(await mailButtons()).toEqual([
      ["Resend Mail via AWS", false, null],
      ["Resend Mail via Sendgrid", false, null],
      ["Sent Mail", false, null],
    ]);
  });

  it("ORDER-2, ORDER-8, ORDER-12: Resend Mail via AWS and Sent Mail add to Email History; View Email Content has Close and a Whatsapp chat link from the phone (QUEUE-13)", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    const form = new FormData();
    form.set("orderId", orderId!);
    form.set("email", "first.copy@example.com");
    form.set("uploadVisaDoc", new Blob([TINY_PDF], { type: "application/pdf" }), "visa.pdf");
    const uploaded = await fetch(`${app.base}/api/admin/upload-visa-document`, { method: "POST", headers: { authorization: adminToken }, body: form });
    expect(uploaded.status).toBe(200);

    const page = await openOrder(manager, orderId!, "New");
    await page.waitForFunction(() => document.querySelectorAll(".order-email-history tbody tr").length === 1 && !document.querySelector(".order-email-history .table-empty"), POLL);
    const emailInput = "[data-section=email-history] .order-inline-form input";
    await clear(page, emailInput);
    await button(page, "[data-section=email-history] .order-inline-form", "Resend Mail via AWS").click();
    await waitForText(page, "Please enter your email");
    await page.locator(emailInput).fill("second.copy@example.com");
    await button(page, "[data-section=email-history] .order-inline-form", "Resend Mail via AWS").click();
    await waitForToast(page, "success", "Mail has been queued for sending");
    await page.waitForFunction(() => document.querySelectorAll(".order-email-history tbody tr").length === 2, POLL);
    const providers = await page.$$eval(".order-email-history tbody tr td:nth-child(5)", (tds) => tds.map((td) => td.textContent));
    expect(providers.sort()).toEqual(["AWS", "AWS"]);

    // ORDER-8: Sent Mail under Download History sends a reminder, listed with Remainder Mail "Yes".
    await button(page, ".order-reminder-form", "Sent Mail").click();
    await waitForToast(page, "success", "Reminder mail has been queued for sending");
    await page.waitForFunction(() => document.querySelectorAll(".order-email-history tbody tr").length === 3, POLL);
    const reminders = await page.$$eval(".order-email-history tbody tr td:nth-child(6)", (tds) => tds.map((td) => td.textContent));
    expect(reminders.sort()).toEqual(["No", "No", "Yes"]);

    await button(page, "[data-section=email-history]", "View Email Content").click();
    await page.waitForSelector("[role=dialog]");
    expect(await page.$eval("[role=dialog] h2", (h) => h.textContent)).toBe("Email Content");
    const order = await details(orderId!);
    const chat = await page.$eval("[role=dialog] a::-p-text(Send Whatsapp Message)", (a) => a.getAttribute("href"));
    const digits = `${order.country_phone_code ?? ""}${order.phone_number ?? ""}`.replace(/\D/g, "");
    expect(chat).toMatch(new RegExp(`^https://wa\\.me/(${digits}|${String(order.phone_number ?? "").replace(/\D/g, "")})\\?text=`));
    await page.locator("[role=dialog] button::-p-text(Close)").click();
    await page.waitForFunction(() => !document.querySelector("[role=dialog]"), POLL);
  });

  it("Audit tab (audit.read): Admin and Manager see the timeline with who, when and from which IP; a Team member has no tab", async () => {
    const [orderId] = await app.placeOrders(1, standard);
    await setStatus(orderId!, "awaitinggovt");
    const page = await openOrder(manager, orderId!, "AwaitingGovt");
    await page.locator("[role=tab]::-p-text(Audit)").click();
    await page.waitForSelector(".order-timeline li");
    const lines = await page.$$eval(".order-timeline li", (items) => items.map((li) => li.textContent ?? ""));
    const move = lines.find((line) => line.includes("Ada Admin"));
    expect(move, lines.join("\n")).toBeDefined();
    expect(move).toMatch(/from (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);

    // The order as it stood at a moment before the move: not yet Awaiting Govt.
    const placedAt = (await details(orderId!)).created_at;
    const moment = new Date(new Date(placedAt).getTime() + 1000);
    const local = new Date(moment.getTime() - moment.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    await setInputValue(page, ".order-as-of input[type=datetime-local]", local);
    await button(page, ".order-as-of", "Show").click();
    await page.waitForSelector(".order-as-of [aria-live] strong");
    expect(await page.$eval(".order-as-of [aria-live] strong", (el) => el.textContent)).not.toBe("Awaiting Govt");

    const teamPage = await openOrder(team, orderId!, "AwaitingGovt");
    expect(await teamPage.$("[role=tab]")).toBeNull();
  });

  it("axe: no serious or critical violations on the order page in each status (New, Pending, Completed with the packs, Refund, ChargeBack, Deleted)", async () => {
    const orders = await app.placeOrders(6, standard);
    const statuses = ["New", "Pending", "Completed", "Refund", "ChargeBack", "Deleted"] as const;
    const assigned = await app.api("PUT", "/admin/assign-order-status", { orderId: [orders[1]] }, adminToken);
    expect(assigned.body.status, assigned.body.message).toBe(1);
    await setStatus(orders[2]!, "completed");
    await setStatus(orders[3]!, "refund");
    await setStatus(orders[4]!, "chargeback");
    await setStatus(orders[5]!, "deleted");
    for (const [index, status] of statuses.entries()) {
      const page = await openOrder(manager, orders[index]!, status);
      if (status === "Completed") await button(page, ".order-defence", "Enter Transaction Details").click();
      const violations = await seriousViolations(page);
      expect(violations, status).toEqual([]);
      await page.close();
    }
  });
});
