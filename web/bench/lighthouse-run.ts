import lighthouse, { type Flags, type Result } from "lighthouse";
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
  /** Where the page was when Lighthouse finished, and what it showed there. */
  readonly landed: { readonly path: string; readonly heading: string; readonly historyRows: number };
}

export interface AuditOptions {
  /** Runs on the tab before Lighthouse loads the page (the test plants a known fault with it). */
  readonly prepare?: (tab: Page) => Promise<unknown>;
  /** False: the browser holds no grant (the test's check that a wrong page is noticed). */
  readonly withGrant?: boolean;
}

/**
 * The benchmark index of the phone Lighthouse's mobile defaults stand for (a low-tier device; Chrome
 * DevTools' CPU calibration uses the same figure), and the most slowdown Lighthouse applies by default.
 */
const LOW_TIER_PHONE_INDEX = 264;
const DEFAULT_CPU_SLOWDOWN = 4;

/**
 * The CPU slowdown that makes this host, as busy as it is now, the phone Lighthouse means: its
 * default 4x assumes a desktop about four times that phone's speed, so on a shared 2-core runner
 * (or beside other tests) the page's own work would be counted as a slower phone's. Lighthouse
 * measures the host's benchmark index at the start of every run; one run of a single cheap audit
 * reads it (Lighthouse's throttling documentation calibrates the same way).
 */
const cpuSlowdownFor = async (url: string, tab: Page): Promise<number> => {
  const probe = await lighthouse(url, { onlyAudits: ["viewport"], logLevel: "error", output: "json" }, undefined, tab);
  const index = probe?.lhr.environment.benchmarkIndex;
  if (typeof index !== "number" || !(index > 0)) return DEFAULT_CPU_SLOWDOWN;
  return Math.min(DEFAULT_CPU_SLOWDOWN, Math.max(1, index / LOW_TIER_PHONE_INDEX));
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
    const throttling = categories.includes("performance") ? { cpuSlowdownMultiplier: await cpuSlowdownFor(url, tab) } : {};
    const flags: Flags = { onlyCategories: [...categories], logLevel: "error", output: "json", ...(Object.keys(throttling).length > 0 ? { throttling } : {}) };
    const result = await lighthouse(url, flags, undefined, tab);
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
    return { page, lhr, scores, failingA11y, landed };
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
