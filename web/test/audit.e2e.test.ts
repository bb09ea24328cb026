import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AuditEvent } from "@etd/contract";
import { postgresAvailable } from "@etd/infra/test-database";
import type { Page } from "puppeteer-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isoToEasternInput } from "../src/features/audit/audit-model.ts";
import { chromiumAvailable, menuLabels, POLL, seriousViolations, setInputValue, startE2eApp, waitForText, type E2eApp, type StaffMember } from "./support/index.ts";

/*
 * The Audit area in a real browser against the real API on PostgreSQL (issue 14, CARD-4): an
 * order's replay with its slider and diff, a folder as it stood at a past moment, who may see the
 * area, and axe on its screens. The orders are made and worked through the API, as staff would;
 * what is checked is what the auditor sees.
 */

const ready = chromiumAvailable() && (await postgresAvailable());

interface Moment {
  /** The order event after which the order is looked at. */
  readonly eventId: string;
  readonly status: string;
  readonly assignee: string;
  readonly remarks: readonly string[];
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent?.trim() ?? "");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!ready)("the Audit area (issue 14, CARD-4)", () => {
  let app: E2eApp;
  let adminToken: string;
  let manager: StaffMember;
  let team: StaffMember;
  let telecaller: StaffMember;
  let nightStaff: StaffMember;

  const act = async (token: string, method: "PUT" | "POST", path: string, body: unknown) => {
    const answer = await app.api(method, path, body, token);
    expect(answer.body.status, `${path}: ${answer.body.message}`).toBe(1);
  };

  const history = async (orderId: string): Promise<AuditEvent[]> => {
    const answer = await app.api("GET", `/audit/orders/${orderId}/history`, undefined, adminToken);
    expect(answer.body.status, answer.body.message).toBe(1);
    return answer.body.data as AuditEvent[];
  };

  const orderEvents = async (orderId: string) => (await history(orderId)).filter((event) => event.stream === `order-${orderId}`);

  /** Opens the order's replay and waits for its timeline. */
  const openReplay = async (orderId: string) => {
    const page = await app.newPage({ width: 1400, height: 1000 });
    await app.openSignedIn(page, manager, `/admin/audit/orders/${orderId}`);
    await page.waitForSelector(".audit-timeline tbody tr");
    return page;
  };

  /** Moves the slider to the event, from the keyboard as a user would, and waits for the order at that moment. */
  const slideTo = async (page: Page, eventId: string): Promise<number> => {
    const position = await page.$eval(`.audit-timeline tr[data-event-id="${eventId}"]`, (row) => Number((row as HTMLElement).dataset.position));
    await page.focus('.audit-slider input[type="range"]');
    await page.keyboard.press("Home");
    for (let step = 1; step < position; step++) await page.keyboard.press("ArrowRight");
    await page.waitForSelector(`.audit-moment[data-position="${position}"][data-ready="true"]`);
    return position;
  };

  beforeAll(async () => {
    app = await startE2eApp();
    adminToken = await app.login(app.admin);
    manager = await app.addStaff("Manager", { name: "Maria Manager" });
    team = await app.addStaff("Team", { name: "Tom Team" });
    telecaller = await app.addStaff("Telecaller", { name: "Tess Telecaller" });
    nightStaff = await app.addStaff("Night Staff", { name: "Nick Night" });
  });
  afterEach(async () => {
    await app?.closePages();
  });
  afterAll(async () => {
    await app?.close();
  });

  describe("an order with 30 events", () => {
    let orderId: string;
    const moments: Moment[] = [];

    beforeAll(async () => {
      [orderId] = (await app.placeOrders(1, () => ({ processing_mode: "standard" }))) as [string];
      const tokens = { tom: await app.login(team), maria: await app.login(manager), ada: adminToken };
      const names = { tom: team.name, maria: manager.name, ada: app.admin.name };
      // What the order is as the steps below leave it: the moments' expectations.
      let status = "New";
      let assignee = "Unassigned";
      const remarks: string[] = [];
      const LABELS: Record<string, string> = {
        Pending: "Pending",
        Awaiting: "Awaiting Customer",
        AwaitingGovt: "Awaiting Govt",
        ContactCustomer: "Contact Customer",
        CustomerCalled: "Customer Called",
        Completed: "Completed",
      };
      const by = (who: keyof typeof tokens) => ({
        assign: async () => {
          await act(tokens[who], "PUT", "/admin/assign-order-status", { orderId: [orderId] });
          [status, assignee] = ["Pending", names[who]];
        },
        moveBack: async () => {
          await act(tokens[who], "PUT", "/admin/move-order-status", { orderId: [orderId] });
          [status, assignee] = ["New", "Unassigned"];
        },
        status: async (to: string) => {
          await act(tokens[who], "PUT", "/admin/change-order-status", { orderId: [orderId], updatingStatus: to });
          status = LABELS[to]!;
        },
        remark: async (remark: string) => {
          await act(tokens[who], "POST", "/admin/add-new-remark", { orderId, remark });
          remarks.push(remark);
        },
      });
      const snapshot = async () => {
        const events = await orderEvents(orderId);
        moments.push({ eventId: events.at(-1)!.eventId, status, assignee, remarks: [...remarks] });
      };

      // Moment A: Tom's, after his moves and three remarks (events 2 to 8).
      await by("tom").assign();
      await by("tom").remark("Called the traveller: no answer");
      await by("tom").status("Awaiting");
      await by("tom").remark("Asked for a clearer passport scan");
      await by("tom").status("Pending");
      await by("tom").remark("Scan received, sent to the government");
      await by("tom").status("AwaitingGovt");
      await snapshot();
      // Moment B: Maria takes it over (events 9 to 14).
      await by("maria").moveBack();
      await by("maria").assign();
      await by("maria").remark("Government asked for the hotel address");
      await by("maria").status("ContactCustomer");
      await by("maria").remark("Traveller called back with the address");
      await by("maria").status("CustomerCalled");
      await snapshot();
      // Then the admin holds it, and the order goes on to its 30th event.
      await by("maria").moveBack();
      await by("ada").assign();
      const cycle = ["Awaiting", "Pending", "ContactCustomer", "AwaitingGovt", "Completed", "Pending", "CustomerCalled"];
      for (let step = 0; (await orderEvents(orderId)).length < 30; step++) {
        if (step % 2 === 0) await by("ada").remark(`Follow-up note ${step / 2 + 1}`);
        else await by("ada").status(cycle[(step - 1) / 2 % cycle.length]!);
      }
      await snapshot();
      expect(await orderEvents(orderId)).toHaveLength(30);
    });

    it("CARD-4: the slider at three moments shows the status, the assignee and the remarks of each moment, and marks its event in the timeline", async () => {
      const page = await openReplay(orderId);
      expect(await page.$$eval(".audit-timeline tbody tr", (rows) => rows.length)).toBeGreaterThanOrEqual(30);
      // The slider is labelled and says which event it stands on.
      const slider = await page.$eval('.audit-slider input[type="range"]', (el) => ({
        label: (el).labels?.[0]?.textContent ?? "",
        valuetext: el.getAttribute("aria-valuetext") ?? "",
      }));
      expect(slider.label).toMatch(/^After event \d+ of \d+$/);
      expect(slider.valuetext).toMatch(/^Event \d+ of \d+: /);

      for (const moment of [moments[1]!, moments[0]!, moments[2]!]) {
        const position = await slideTo(page, moment.eventId);
        expect(await text(page, ".audit-as-of-status"), `status after event ${position}`).toBe(moment.status);
        expect(await text(page, ".audit-as-of-assignee"), `assignee after event ${position}`).toBe(moment.assignee);
        expect(await page.$$eval(".audit-remark-text", (items) => items.map((el) => el.textContent)), `remarks after event ${position}`).toEqual(moment.remarks);
        const selected = await page.$eval(".audit-timeline tr.audit-selected", (row) => ({ id: (row as HTMLElement).dataset.eventId, current: row.getAttribute("aria-current"), marker: row.textContent }));
        expect(selected).toMatchObject({ id: moment.eventId, current: "step" });
        expect(selected.marker).toContain("Shown");
      }
      // The timeline names who did it, with the role, and when in US Eastern.
      const tomsRow = await page.$eval(`.audit-timeline tr[data-event-id="${moments[0]!.eventId}"]`, (row) => row.textContent ?? "");
      expect(tomsRow).toContain("Tom Team (Team)");
      expect(tomsRow).toMatch(/\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} [AP]M EST/);
    });

    it("CARD-4: the diff between two moments names exactly the fields that changed, each kind in words", async () => {
      const page = await openReplay(orderId);
      const [a, b] = await Promise.all(
        [moments[0]!, moments[1]!].map((moment) => page.$eval(`.audit-timeline tr[data-event-id="${moment.eventId}"]`, (row) => (row as HTMLElement).dataset.position!)),
      );
      await page.select('select[name="from"]', a!);
      await page.select('select[name="to"]', b!);
      await page.locator("button::-p-text(Compare)").click();
      await page.waitForSelector(".audit-diff-count");
      const rows = await page.$$eval(".audit-diff tbody tr", (trs) =>
        trs.map((tr) => ({ path: (tr as HTMLElement).dataset.path, kind: (tr as HTMLElement).dataset.kind, word: tr.querySelector(".audit-change-kind")?.textContent?.trim() })),
      );
      // From Tom's Awaiting Govt to Maria's Customer Called: a new status, a new holder, a new
      // "last change", and the two remarks written in between. Nothing else about the order moved.
      const changed = [
        "order.assignee.at",
        "order.assignee.staff.id",
        "order.assignee.staff.name",
        "order.lastChange.at",
        "order.lastChange.by",
        "order.lastChange.what",
        "order.status",
        "order.statusLabel",
      ];
      expect(rows.map((row) => row.path).sort()).toEqual([...changed, "remarks.3", "remarks.4"].sort());
      for (const row of rows) {
        const added = row.path!.startsWith("remarks.");
        expect(row.kind, row.path).toBe(added ? "added" : "changed");
        expect(row.word, row.path).toBe(added ? "+ Added" : "± Changed");
      }
      expect(await text(page, ".audit-diff-count")).toBe(`10 fields changed between event ${a} and event ${b} (6 events in between).`);
      const statusRow = await page.$eval('.audit-diff tr[data-path="order.statusLabel"]', (tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent));
      expect(statusRow.slice(1)).toEqual(["Awaiting Govt", "Customer Called"]);
    });
  });

  it("CARD-4: a folder at a past moment lists the orders that were in it then: one that left since is listed, one placed later is not", async () => {
    const [leaver] = (await app.placeOrders(1, () => ({ processing_mode: "standard" }))) as [string];
    await act(adminToken, "PUT", "/admin/change-order-status", { orderId: [leaver], updatingStatus: "AwaitingGovt" });
    // The moment, to the second (the input's precision): after the move, before anything below.
    const moment = new Date(Math.floor(Date.now() / 1000) * 1000 + 1000);
    while (Date.now() < moment.getTime() + 200) await sleep(50);
    await act(adminToken, "PUT", "/admin/change-order-status", { orderId: [leaver], updatingStatus: "Completed" });
    const [later] = (await app.placeOrders(1, () => ({ processing_mode: "standard" }))) as [string];
    await act(adminToken, "PUT", "/admin/change-order-status", { orderId: [later], updatingStatus: "AwaitingGovt" });

    const page = await app.newPage({ width: 1400, height: 1000 });
    await app.openSignedIn(page, manager, "/admin/audit/queues");
    await page.waitForSelector('select[name="folder"]');
    // The folders carry their menu labels.
    expect(await page.$eval('select[name="folder"] option[value="awaitingGovtOrder"]', (o) => o.textContent)).toBe("Awaiting Govt");
    await page.select('select[name="folder"]', "awaitingGovtOrder");
    await setInputValue(page, 'input[name="at"]', isoToEasternInput(moment.toISOString()));
    await page.locator("main button::-p-text(Show)").click();
    await page.waitForSelector(".audit-queue-count");
    const ids = await page.$$eval(".audit-queue-table tbody tr[data-order-id]", (rows) => rows.map((row) => (row as HTMLElement).dataset.orderId));
    expect(ids).toContain(leaver);
    expect(ids).not.toContain(later);
    const count = Number(await page.$eval(".audit-queue-count", (el) => (el as HTMLElement).dataset.count));
    expect(count).toBe(ids.length);
    expect(await text(page, ".audit-queue-count")).toMatch(/^Awaiting Govt at \d{2}\/\d{2}\/\d{4} .* EST: \d+ orders?$/);
    const leaverRow = await page.$eval(`.audit-queue-table tr[data-order-id="${leaver}"]`, (row) => [...row.querySelectorAll("td")].map((td) => td.textContent));
    expect(leaverRow[2]).toBe("Awaiting Govt");
    // The URL holds the question, and the order id opens that order's replay.
    expect(await page.evaluate(() => location.search)).toContain("folder=awaitingGovtOrder");
    await page.locator(`.audit-queue-table tr[data-order-id="${leaver}"] a`).click();
    await page.waitForFunction((id) => location.pathname === `/admin/audit/orders/${id}`, POLL, leaver);
    await page.waitForSelector(".audit-timeline tbody tr");
    // The headline may come a moment after the timeline's rows (the fresh-clone run of 96b981f read before it).
    await page.waitForSelector(".audit-as-of-status");
    // Today it is Completed: the past folder was not read from today's queues.
    expect(await text(page, ".audit-as-of-status")).toBe("Completed");
  });

  it("issue 14: Export history hands the browser the order's events as a JSON lines file naming every one of them", async () => {
    const [orderId] = (await app.placeOrders(1, () => ({ processing_mode: "standard" }))) as [string];
    await act(await app.login(team), "PUT", "/admin/assign-order-status", { orderId: [orderId] });
    const downloads = await mkdtemp(path.join(tmpdir(), "etd-audit-export-"));
    const context = await app.browser.createBrowserContext({ downloadBehavior: { policy: "allow", downloadPath: downloads } });
    try {
      const page = await context.newPage();
      await page.setViewport({ width: 1400, height: 1000 });
      await app.openSignedIn(page, manager, `/admin/audit/orders/${orderId}`);
      await page.waitForSelector(".audit-timeline tbody tr");
      await page.locator("button::-p-text(Export history)").click();
      await page.waitForFunction(() => document.querySelector(".audit-export-message")?.textContent?.startsWith("Downloaded"), POLL);
      const fileName = `order-${orderId}.jsonl`;
      let files: string[] = [];
      for (let tries = 0; tries < 100 && !files.includes(fileName); tries++) {
        await sleep(50);
        files = await readdir(downloads);
      }
      expect(files).toContain(fileName);
      const lines = (await readFile(path.join(downloads, fileName), "utf8")).split("\n").filter((line) => line.trim() !== "");
      const events = await orderEvents(orderId);
      expect(lines.length).toBeGreaterThanOrEqual(events.length);
      const exported = lines.map((line) => JSON.stringify(JSON.parse(line)));
      for (const event of events) expect(exported.some((line) => line.includes(event.eventId)), event.eventId).toBe(true);
      expect(await text(page, ".audit-export-message")).toBe(`Downloaded ${fileName} (${lines.length} lines).`);
    } finally {
      await context.close();
      await rm(downloads, { recursive: true, force: true });
    }
  });

  it("issue 14: the verify badge says Not verified yet until asked, then that the log's chain is intact, with the count of events", async () => {
    const page = await app.newPage();
    await app.openSignedIn(page, manager, "/admin/audit");
    await page.waitForSelector(".audit-badge");
    expect(await text(page, ".audit-badge")).toBe("? Not verified yet");
    await page.locator(".audit-verify button::-p-text(Verify)").click();
    await page.waitForSelector('.audit-badge[data-tone="ok"]', { timeout: 30_000 });
    expect(await text(page, ".audit-badge")).toMatch(/^✓ Log verified: [1-9]\d* events, chain intact$/);
    // Kept for the visit: another audit screen shows the same answer without walking the log again.
    await page.locator("a::-p-text(Queue at a moment)").click();
    await page.waitForSelector("#audit-queue-title");
    expect(await page.$eval(".audit-badge", (el) => (el as HTMLElement).dataset.tone)).toBe("ok");
  });

  it("CARD-4: Team, Telecaller and Night Staff see no Audit entry, and /admin/audit shows them the no-access view; the API refuses them too", async () => {
    for (const member of [team, telecaller, nightStaff]) {
      const page = await app.newPage();
      await app.openSignedIn(page, member);
      await page.waitForSelector('nav[aria-label="Main menu"] .side-menu-label');
      expect(await menuLabels(page), member.role).not.toContain("Audit");
      await page.goto(`${app.base}/admin/audit`);
      await waitForText(page, "No access");
      expect(await text(page, ".audit-no-access [role=alert]")).toBe("The Audit area is for Admins and Managers only.");
      expect(await page.$(".audit-verify")).toBeNull();
      const refused = await app.api("GET", "/audit/orders/300001/history", undefined, await app.login(member));
      expect(refused.status, member.role).toBe(403);
    }
    const page = await app.newPage();
    await app.openSignedIn(page, manager);
    await page.waitForSelector('nav[aria-label="Main menu"] .side-menu-label');
    expect(await menuLabels(page)).toContain("Audit");
  });

  it("issue 14: axe finds no serious or critical violation on the replay, the queue at a moment and the staff activity screens", async () => {
    const [orderId] = (await app.placeOrders(1, () => ({ processing_mode: "standard" }))) as [string];
    const tom = await app.login(team);
    await act(tom, "PUT", "/admin/assign-order-status", { orderId: [orderId] });
    await act(tom, "POST", "/admin/add-new-remark", { orderId, remark: "Checked the photo" });
    const from = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const to = new Date(Date.now() + 60 * 60 * 1000).toISOString();

    const page = await app.newPage({ width: 1400, height: 1000 });
    await app.openSignedIn(page, manager, `/admin/audit/orders/${orderId}`);
    await page.waitForSelector('.audit-moment[data-ready="true"]');
    await page.locator("button::-p-text(Compare)").click();
    await page.waitForSelector(".audit-diff-count");
    expect(await seriousViolations(page), "replay").toEqual([]);

    await page.goto(`${app.base}/admin/audit/queues?folder=pendingOrder&at=${encodeURIComponent(to)}`);
    await page.waitForSelector(`.audit-queue-table tr[data-order-id="${orderId}"]`);
    expect(await seriousViolations(page), "queue at a moment").toEqual([]);

    await page.goto(`${app.base}/admin/audit/staff?staffId=${team.id}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    await page.waitForSelector(`.audit-activity-table tr[data-order-id="${orderId}"] a`);
    expect(await seriousViolations(page), "staff activity").toEqual([]);
    // Each event links to its order's replay.
    await page.locator(`.audit-activity-table tr[data-order-id="${orderId}"] a`).click();
    await page.waitForFunction((id) => location.pathname === `/admin/audit/orders/${id}`, POLL, orderId);

    await page.goto(`${app.base}/admin/audit`);
    await page.waitForSelector("#audit-home-title");
    expect(await text(page, ".audit-badge")).toContain("Not verified yet");
    expect(await seriousViolations(page), "audit home").toEqual([]);
  });
});
