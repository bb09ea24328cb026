import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/*
 * Builds the web app when web/dist is missing or older than its sources, so `npm start` and the
 * browser tests always serve the current app without paying for a build on every run.
 */

const WEB = fileURLToPath(new URL("..", import.meta.url));
/** What the two builds write last: the console's page and the traveller's (vite.track.config.ts). */
const BUILT = ["index.html", "track.html"].map((page) => path.join(WEB, "dist", page));
const SOURCES = ["src", "index.html", "track.html", "vite.config.ts", "vite.track.config.ts", "package.json"].map((p) => path.join(WEB, p));

const newestChange = (entry: string): number => {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stat.mtimeMs);
};

export const webBuildIsStale = (): boolean =>
  !BUILT.every((page) => existsSync(page)) || Math.max(...SOURCES.map(newestChange)) > Math.min(...BUILT.map((page) => statSync(page).mtimeMs));

/**
 * Runs `npm run build`'s two builds in web/ (output shown): the console with React, which empties
 * dist/, then the traveller's pages with Preact into it (ADR 0038). Throws when one fails.
 */
export const buildWeb = (): void => {
  const vitePackage = createRequire(path.join(WEB, "package.json")).resolve("vite/package.json");
  const vite = path.join(path.dirname(vitePackage), "bin", "vite.js");
  // Always the production build: under vitest NODE_ENV is "test", which vite would pass on and
  // React would then ship its development build, so the browser tests and P6 would measure
  // something no user is served.
  for (const config of ["vite.config.ts", "vite.track.config.ts"]) {
    const result = spawnSync(process.execPath, [vite, "build", "--config", config], { cwd: WEB, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
    if (result.status !== 0) throw new Error(`building the web app failed (${config}, exit ${result.status})`);
  }
};

export const buildWebIfStale = (): void => {
  if (webBuildIsStale()) buildWeb();
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    if (webBuildIsStale()) {
      console.log("Building the web app (web/dist is missing or older than web/src)…");
      buildWeb();
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
