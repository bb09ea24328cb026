import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import lighthouse, { type Flags, type Result, type RunnerResult } from "lighthouse";
import type { Page } from "puppeteer-core";
import { prepareTraveller, startE2eApp, type E2eApp, type Traveller } from "../test/support/index.ts";

/*
 * P12 (issue 13): Lighthouse on the traveller's two pages, shared by the bench (performance and
 * accessibility, web/bench/lighthouse.bench.ts) and the test (the same, with issue 29's floors,
 * web/test/lighthouse.e2e.test.ts). The product runs as in the browser tests: the real API on a
 * throwaway PostgreSQL database serving the built web app, with the harness's Chromium (Debian's,
 * nothing downloaded). Lighthouse audits a page of that browser with its default settings:
 * mobile emulation, simulated throttling.
 *
 * The download page needs the grant track-order sets. It goes into the audited page's cookie jar
 * as the browser keeps it after tracking (HttpOnly, SameSite=Strict), so the page's own request
 * for the history carries it. The order has a document and one recorded download, so the page
 * shows what a traveller sees there: Download Now enabled and a history row. After each run the
 * page is checked to still be where it was sent: a missing grant would send it back to the track
 * page, and the audit would then be of the wrong page.
 */

export type PageName = "track" | "download";

export type Category = "performance" | "accessibility";

export interface LighthouseSetup {
  readonly app: E2eApp;
  readonly orderId: string;
  /** The grant cookie's value for `orderId`. */
  readonly grant: string;
  readonly paths: Record<PageName, string>;
  close(): Promise<void>;
}

const TRAVELLER: Traveller = { email: "lighthouse.traveller@example.com", firstName: "Lorna", landingDomain: "primary" };

/** Starts the product, places an order, uploads its document, tracks it (the grant) and downloads it once. */
export const startLighthouseSetup = async (): Promise<LighthouseSetup> => {
  const app = await startE2eApp();
  try {
    const { orderId, grant } = await prepareTraveller(app, TRAVELLER);
    return {
      app,
      orderId,
      grant,
      paths: { track: `/track-order/${orderId}`, download: `/get-new-order-details/${orderId}` },
      close: () => app.close(),
    };
  } catch (error) {
    await app.close();
    throw error;
  }
};

export interface PageAudit {
  readonly page: PageName;
  readonly lhr: Result;
  /** 0-100 per audited category. */
  readonly scores: Partial<Record<Category, number>>;
  /** Accessibility audits that count towards the score and did not pass, by id. */
  readonly failingA11y: readonly string[];
  /**
   * The main thread's wall time per CPU time in its tasks as gathered: how busy the host was (1: a
   * core of its own). Undefined when no performance was asked for: Lighthouse then records no trace.
   */
  readonly wallPerCpu: number | undefined;
  /** Where the page was when Lighthouse finished, and what it showed there. */
  readonly landed: { readonly path: string; readonly heading: string; readonly historyRows: number };
}

export interface AuditOptions {
  /** Runs on the tab before Lighthouse loads the page (the test plants a known fault with it). */
  readonly prepare?: (tab: Page) => Promise<unknown>;
  /** False: the browser holds no grant (the test's check that a wrong page is noticed). */
  readonly withGrant?: boolean;
}

/** One event of a Chrome trace, as far as the CPU-time view below reads and changes it. */
interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  ts: number;
  dur?: number;
  readonly tdur?: number;
  readonly args?: { readonly name?: string };
}

/** The top-level task of a renderer's main thread: everything the thread does runs inside one. */
const TOP_LEVEL_TASKS = new Set(["RunTask", "ThreadControllerImpl::RunTask"]);

/**
 * The trace as the page's own work on the main thread would have drawn it on a core of its own:
 * each top-level task of a renderer's main thread shrunk to its thread (CPU) time, the events
 * inside it drawn in proportion. Simulated throttling counts a task's wall time, times the CPU
 * slowdown, as the phone's; on a shared host a task's wall time also holds the time it waited for
 * a core (four times the CPU time at a load of 13 on this 2-core runner), which is the host's
 * load, not the page's cost. Tasks keep their start, so the order of events, the network's timing
 * and the gaps between tasks stay as recorded. Answers how much wall time there was per CPU time.
 */
export const onCpuTime = (events: TraceEvent[]): number => {
  const mainThreads = new Set(events.filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (!mainThreads.has(thread) || typeof event.ts !== "number") continue;
    const list = byThread.get(thread) ?? [];
    list.push(event);
    byThread.set(thread, list);
  }
  let wall = 0;
  let cpu = 0;
  for (const list of byThread.values()) {
    const tasks = list.filter((e) => e.ph === "X" && TOP_LEVEL_TASKS.has(e.name) && typeof e.dur === "number" && typeof e.tdur === "number" && e.dur > 0);
    tasks.sort((a, b) => a.ts - b.ts);
    // A task's window, and how much it shrinks: never grows, and tasks nested in a task go with it.
    const windows: { start: number; end: number; ratio: number }[] = [];
    for (const task of tasks) {
      const end = task.ts + task.dur!;
      if (windows.length > 0 && task.ts < windows.at(-1)!.end) continue;
      windows.push({ start: task.ts, end, ratio: Math.min(1, task.tdur! / task.dur!) });
      wall += task.dur!;
      cpu += Math.min(task.tdur!, task.dur!);
    }
    let w = 0;
    for (const event of [...list].sort((a, b) => a.ts - b.ts)) {
      while (w < windows.length && windows[w]!.end < event.ts) w++;
      const window = windows[w];
      if (!window || event.ts < window.start) continue;
      const drawn = (at: number) => window.start + (Math.min(at, window.end) - window.start) * window.ratio;
      const end = drawn(event.ts + (event.dur ?? 0));
      event.ts = drawn(event.ts);
      if (event.dur !== undefined) event.dur = end - event.ts;
    }
  }
  return cpu === 0 ? 1 : wall / cpu;
};

/** Lighthouse on one of the pages, in a fresh browser context holding the grant. */
export const auditPage = async (setup: LighthouseSetup, page: PageName, categories: readonly Category[], { prepare, withGrant = true }: AuditOptions = {}): Promise<PageAudit> => {
  const { app } = setup;
  const context = await app.browser.createBrowserContext();
  try {
    if (withGrant) await context.setCookie({ name: "etd_grant", value: setup.grant, domain: new URL(app.base).hostname, path: "/", httpOnly: true, sameSite: "Strict" });
    const tab = await context.newPage();
    await prepare?.(tab);
    const url = `${app.base}${setup.paths[page]}`;
    const flags: Flags = { onlyCategories: [...categories], logLevel: "error", output: "json" };
    // Gathered, the trace drawn on CPU time (onCpuTime), then audited from what was gathered.
    const gatherAndAudit = async (): Promise<{ result: RunnerResult | undefined; wallPerCpu: number | undefined }> => {
      const artifacts = await mkdtemp(path.join(tmpdir(), "etd-lighthouse-"));
      try {
        await lighthouse(url, { ...flags, gatherMode: artifacts }, undefined, tab);
        let wallPerCpu: number | undefined;
        if (categories.includes("performance")) {
          const tracePath = path.join(artifacts, "trace.json");
          const trace = JSON.parse(await readFile(tracePath, "utf8")) as { traceEvents: TraceEvent[] };
          wallPerCpu = onCpuTime(trace.traceEvents);
          await writeFile(tracePath, JSON.stringify(trace));
        }
        return { result: await lighthouse(undefined, { ...flags, auditMode: artifacts }), wallPerCpu };
      } finally {
        await rm(artifacts, { recursive: true, force: true });
      }
    };
    let { result, wallPerCpu } = await gatherAndAudit();
    // NO_NAVSTART: the trace lacks the navigation's start. The page is loaded in a renderer process
    // started for it, and on a busy host Chromium sometimes begins tracing that process only after
    // the navigation has started (seen in about 1 gather in 20 at a load of 10, the gathered trace
    // as it came). Lighthouse's own advice is to run it again; twice more at most.
    for (let again = 0; again < 2 && result?.lhr.runtimeError?.code === "NO_NAVSTART"; again++) {
      ({ result, wallPerCpu } = await gatherAndAudit());
    }
    if (!result) throw new Error(`Lighthouse returned no result for ${page}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${page}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const landed = await tab.evaluate(() => ({
      path: location.pathname,
      heading: document.querySelector("h1")?.textContent ?? "",
      historyRows: document.querySelectorAll(".public-table tbody tr td:nth-child(2)").length,
    }));
    const scores: PageAudit["scores"] = {};
    for (const category of categories) {
      const score = lhr.categories[category]?.score;
      if (typeof score !== "number") throw new Error(`Lighthouse gave ${page} no ${category} score`);
      scores[category] = Math.round(score * 100);
    }
    const failingA11y = (lhr.categories.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id);
    return { page, lhr, scores, failingA11y, landed, wallPerCpu };
  } finally {
    await context.close().catch(() => undefined);
  }
};

/**
 * Why an audit may not count: the page is not the one asked for (the download page sent back to
 * tracking), or the download page shows no history row. Undefined when it is the right page.
 */
export const wrongPage = (setup: LighthouseSetup, audit: PageAudit): string | undefined => {
  const expected = setup.paths[audit.page];
  if (audit.landed.path !== expected) return `${audit.page}: Lighthouse ended on ${audit.landed.path}, not ${expected}`;
  if (audit.page === "download" && audit.landed.historyRows < 1) return `download: the page shows no history row (heading "${audit.landed.heading}")`;
  return undefined;
};
