import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "puppeteer-core";

/*
 * Accessibility (brief: no serious or critical axe-core violation on any screen): axe-core is
 * injected into the page as it stands and run over the whole document.
 */

const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** Read once per file: the tests run axe on dozens of pages. */
let axeSource: Promise<string> | undefined;

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: readonly string[];
}

/** The rules of WCAG 2.2 level A and AA, by axe-core's tags (issue 29). */
const WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const;

/** Every violation axe-core finds in the page now: of every rule, or of the rules with these tags. */
export const runAxe = async (page: Page, tags?: readonly string[]): Promise<AxeViolation[]> => {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== "undefined");
  // Evaluated through the DevTools protocol rather than added as a <script> tag: the app's
  // Content-Security-Policy (script-src 'self') rightly refuses an inline script tag.
  if (!loaded) await page.evaluate(await (axeSource ??= readFile(AXE_SCRIPT, "utf8")));
  return page.evaluate(async (only) => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"], ...(only ? { runOnly: { type: "tag", values: only } } : {}) });
    return result.violations.map((v) => ({
      id: v.id as string,
      impact: (v.impact ?? null) as string | null,
      help: v.help as string,
      targets: (v.nodes as { target: unknown[] }[]).map((n) => n.target.join(" ")),
    }));
  }, tags);
};

/** Every violation of WCAG 2.2 A and AA axe-core finds, whatever its impact, as readable lines. */
export const wcagViolations = async (page: Page): Promise<string[]> =>
  (await runAxe(page, WCAG_22_AA)).map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.targets.join(", ")}`);

/** The serious and critical ones, as readable lines (empty when the page passes). */
export const seriousViolations = async (page: Page): Promise<string[]> =>
  (await runAxe(page))
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.targets.join(", ")}`);
