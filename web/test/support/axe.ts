import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "puppeteer-core";

/*
 * Accessibility (brief: no serious or critical axe-core violation on any screen): axe-core is
 * injected into the page as it stands and run over the whole document.
 */

const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: readonly string[];
}

/** Every violation axe-core finds in the page now. */
export const runAxe = async (page: Page): Promise<AxeViolation[]> => {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== "undefined");
  // Evaluated through the DevTools protocol rather than added as a <script> tag: the app's
  // Content-Security-Policy (script-src 'self') rightly refuses an inline script tag.
  if (!loaded) await page.evaluate(await readFile(AXE_SCRIPT, "utf8"));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id as string,
      impact: (v.impact ?? null) as string | null,
      help: v.help as string,
      targets: (v.nodes as { target: unknown[] }[]).map((n) => n.target.join(" ")),
    }));
  });
};

/** The serious and critical ones, as readable lines (empty when the page passes). */
export const seriousViolations = async (page: Page): Promise<string[]> =>
  (await runAxe(page))
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact}: ${v.id} (${v.help}) at ${v.targets.join(", ")}`);
