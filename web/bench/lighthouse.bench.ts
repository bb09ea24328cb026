import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildWebIfStale } from "../scripts/build-if-stale.ts";
import { auditPage, startLighthouseSetup, wrongPage, type PageAudit, type PageName } from "./lighthouse-run.ts";

/*
 * P12 (issue 13): Lighthouse's performance and accessibility scores of the traveller's track page
 * and download page (with its grant, a document and a history row), Lighthouse's defaults:
 * mobile emulation, simulated throttling. Goals: performance at least 95, accessibility 100, on
 * both pages. The goals are absolute, so there is no baseline to divide by: each figure is
 * printed with whether it meets its goal. Per page: the scores, the key metrics and the
 * accessibility audits that fail.
 *
 * Prints, last, `P12 lighthouse_perf=<n> lighthouse_a11y=<n>`: the lower score of the two pages.
 */

export const GOALS = { performance: 95, accessibility: 100 } as const;

const PAGES: readonly PageName[] = ["track", "download"];

const METRICS = [
  ["FCP", "first-contentful-paint"],
  ["LCP", "largest-contentful-paint"],
  ["TBT", "total-blocking-time"],
  ["CLS", "cumulative-layout-shift"],
  ["SI", "speed-index"],
  ["total bytes", "total-byte-weight"],
] as const;

/** The last line: each figure is the lower score of the pages. */
export const p12Line = (audits: readonly Pick<PageAudit, "scores">[]): string => {
  const lowest = (category: keyof typeof GOALS) => Math.min(...audits.map((audit) => audit.scores[category] ?? 0));
  return `P12 lighthouse_perf=${lowest("performance")} lighthouse_a11y=${lowest("accessibility")}`;
};

const goal = (score: number, target: number) => `${score} (goal ≥ ${target}: ${score >= target ? "goal met" : "NOT met"})`;

const report = (audit: PageAudit, pagePath: string): string[] => {
  const lines = [`\n${audit.page} page (${pagePath}), Lighthouse ${audit.lhr.lighthouseVersion}, ${audit.lhr.configSettings.formFactor}, ${audit.lhr.configSettings.throttlingMethod} throttling`];
  lines.push(`  performance   ${goal(audit.scores.performance ?? 0, GOALS.performance)}`);
  lines.push(`  accessibility ${goal(audit.scores.accessibility ?? 0, GOALS.accessibility)}`);
  for (const [label, id] of METRICS) {
    const result = audit.lhr.audits[id];
    const shown = id === "total-byte-weight" ? `${((result?.numericValue ?? 0) / 1024).toFixed(1)} KiB` : (result?.displayValue ?? "n/a");
    lines.push(`  ${label.padEnd(12)}  ${shown}${result?.score != null ? `  (score ${Math.round(result.score * 100)})` : ""}`);
  }
  // Transferred against decoded bytes of the scripts and styles: equal when they travel uncompressed.
  const items = ((audit.lhr.audits["network-requests"]?.details as { items?: { resourceType?: string; transferSize?: number; resourceSize?: number }[] } | undefined)?.items ?? []).filter(
    (item) => item.resourceType === "Script" || item.resourceType === "Stylesheet",
  );
  const sum = (key: "transferSize" | "resourceSize") => items.reduce((total, item) => total + (item[key] ?? 0), 0) / 1024;
  lines.push(`  main thread: ${audit.wallPerCpu?.toFixed(2) ?? "n/a"} wall time per CPU time as gathered (the host's load; audited on CPU time)`);
  lines.push(`  scripts and styles: ${sum("transferSize").toFixed(1)} KiB transferred for ${sum("resourceSize").toFixed(1)} KiB decoded`);
  lines.push(`  failing accessibility audits: ${audit.failingA11y.length === 0 ? "none" : audit.failingA11y.join(", ")}`);
  // What keeps performance below its goal: the opportunities and diagnostics Lighthouse flags.
  const flagged = (audit.lhr.categories.performance?.auditRefs ?? [])
    .map((ref) => audit.lhr.audits[ref.id])
    .filter((result) => result && typeof result.score === "number" && result.score < 0.9 && result.scoreDisplayMode !== "informative")
    .map((result) => `${result!.id}${result!.displayValue ? ` (${result!.displayValue})` : ""}`);
  if (flagged.length > 0) lines.push(`  performance audits below 90: ${flagged.join(", ")}`);
  for (const warning of audit.lhr.runWarnings) lines.push(`  Lighthouse warning: ${warning}`);
  return lines;
};

const main = async () => {
  buildWebIfStale();
  const setup = await startLighthouseSetup();
  try {
    const audits: PageAudit[] = [];
    for (const page of PAGES) {
      const audit = await auditPage(setup, page, ["performance", "accessibility"]);
      const wrong = wrongPage(setup, audit);
      if (wrong) throw new Error(wrong);
      audits.push(audit);
      for (const line of report(audit, setup.paths[page])) console.log(line);
    }
    console.log("");
    console.log(p12Line(audits));
  } finally {
    await setup.close();
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
