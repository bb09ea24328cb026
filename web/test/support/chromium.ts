import { existsSync } from "node:fs";

/*
 * Browser tests need Debian's Chromium. Without it they skip with a visible notice, except under
 * CI, where a missing browser is a failure (CI installs it: see .ci/run).
 */
export const CHROMIUM = "/usr/bin/chromium";

let checked: boolean | undefined;

export const chromiumAvailable = (): boolean => {
  if (checked !== undefined) return checked;
  checked = existsSync(CHROMIUM);
  if (!checked) {
    if (process.env.CI) throw new Error(`Chromium is required under CI and ${CHROMIUM} is missing (apt-get install chromium)`);
    console.warn(`\n  NOTICE: ${CHROMIUM} is missing: the browser tests are SKIPPED (apt-get install chromium)\n`);
  }
  return checked;
};
