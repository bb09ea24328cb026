import { postgresAvailable } from "@etd/infra/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditPage, startLighthouseSetup, wrongPage, type LighthouseSetup, type PageAudit } from "../bench/lighthouse-run.ts";
import { chromiumAvailable } from "./support/index.ts";

/*
 * Issue 13, P12, and issue 29: Lighthouse's scores of the traveller's track page and download page
 * (PUBLIC-1, PUBLIC-2), audited as the bench audits them (web/bench/lighthouse-run.ts): the real
 * API on PostgreSQL, Debian's Chromium, Lighthouse's mobile defaults (a 412 px phone), the
 * download page opened with its grant and showing its history. On both: accessibility 100,
 * performance at least 98 (issue 29: no lower than it was, ADR 0038), no layout shift.
 *
 * Performance is simulated, not timed on this host: Lighthouse replays the page's requests over a
 * modelled slow 4G network and counts each main-thread task of the page's trace at 4 times its
 * length (its default mobile CPU slowdown). The trace is drawn on CPU time before that
 * (onCpuTime): a task counts for the time the page's work kept a core busy, not the time it
 * waited for one, which on this shared 2-core machine is the other processes' load (a task's
 * wall time was four times its CPU time at a load of 13). So the score follows what the page
 * makes a phone do (its bytes, its chain of requests, its script's work) and barely moves when the
 * host is busy (CPU time itself grows a little on a crowded machine). A failure gives the metrics and the host's wall time per CPU time beside them.
 */

const ready = chromiumAvailable() && (await postgresAvailable());
if (!ready) console.warn("Lighthouse e2e skipped: needs Chromium and PostgreSQL");

/** Issue 29: the performance score the pages had before it, kept as a floor. */
const PERFORMANCE_FLOOR = 98;

/** What the assertion compares, so a failure names the failing audits. */
const outcome = (audit: PageAudit) => ({
  accessibility: audit.scores.accessibility,
  failingAudits: audit.failingA11y,
  layoutShift: audit.lhr.audits["cumulative-layout-shift"]?.numericValue,
});

const EXPECTED = { accessibility: 100, failingAudits: [], layoutShift: 0 };

/** An audit takes about 15 s on a busy host and may be gathered again (NO_NAVSTART, lighthouse-run.ts). */
const AUDIT_TIMEOUT_MS = 120_000;

/** The metrics behind the performance score, for a failure's message. */
const metrics = (audit: PageAudit): string => {
  const shown = (id: string) => audit.lhr.audits[id]?.displayValue ?? "n/a";
  return (
    `${audit.page}: performance ${audit.scores.performance}: FCP ${shown("first-contentful-paint")}, LCP ${shown("largest-contentful-paint")}, ` +
    `TBT ${shown("total-blocking-time")}, SI ${shown("speed-index")}, CLS ${shown("cumulative-layout-shift")}; ` +
    `the host's wall time per CPU time ${audit.wallPerCpu?.toFixed(2) ?? "n/a"}`
  );
};

/** Asserts the floor; the figures go into the test's report as an annotation either way. */
const expectFastEnough = async (audit: PageAudit, annotate: (message: string) => Promise<unknown>) => {
  await annotate(metrics(audit));
  expect(audit.scores.performance, metrics(audit)).toBeGreaterThanOrEqual(PERFORMANCE_FLOOR);
};

describe.skipIf(!ready)("P12: Lighthouse on the traveller's pages (issue 13: PUBLIC-1, PUBLIC-2; issue 29)", () => {
  let setup: LighthouseSetup;

  beforeAll(async () => {
    setup = await startLighthouseSetup();
  }, 120_000);
  afterAll(async () => {
    await setup?.close();
  });

  it("P12, PUBLIC-1: the track page scores 100 for accessibility and at least 98 for performance, with no layout shift", async ({ annotate }) => {
    const audit = await auditPage(setup, "track", ["performance", "accessibility"]);
    expect(wrongPage(setup, audit)).toBeUndefined();
    expect(outcome(audit)).toEqual(EXPECTED);
    await expectFastEnough(audit, annotate);
  }, AUDIT_TIMEOUT_MS);

  it("P12, PUBLIC-2: the download page, opened with its grant and showing its history, scores 100 for accessibility and at least 98 for performance, with no layout shift", async ({ annotate }) => {
    const audit = await auditPage(setup, "download", ["performance", "accessibility"]);
    // Without the grant the page goes back to tracking: the audit would be of the track page.
    expect(wrongPage(setup, audit)).toBeUndefined();
    expect(audit.landed.heading).toBe("Thank you, Lorna");
    expect(outcome(audit)).toEqual(EXPECTED);
    await expectFastEnough(audit, annotate);
  }, AUDIT_TIMEOUT_MS);

  it("P12: a page with a nameless button and an image without alt text scores below 100, the two audits named", async () => {
    // The fault is planted before the page's own script runs, outside the app's root.
    const audit = await auditPage(setup, "track", ["accessibility"], {
      prepare: (tab) =>
        tab.evaluateOnNewDocument(() => {
          document.addEventListener("DOMContentLoaded", () => {
            document.body.append(document.createElement("button"), Object.assign(document.createElement("img"), { src: "/favicon.ico" }));
          });
        }),
    });
    expect(audit.scores.accessibility).toBeLessThan(100);
    expect(audit.failingA11y).toEqual(expect.arrayContaining(["button-name", "image-alt"]));
  });

  it("P12: the download page audited without the grant is noticed as the wrong page (sent back to tracking)", async () => {
    const audit = await auditPage(setup, "download", ["accessibility"], { withGrant: false });
    expect(audit.landed.path).toBe(setup.paths.track);
    expect(wrongPage(setup, audit)).toBe(`download: Lighthouse ended on ${setup.paths.track}, not ${setup.paths.download}`);
  });
});
