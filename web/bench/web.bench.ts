import { readFileSync, existsSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import puppeteer from "puppeteer-core";
import { buildWeb } from "../scripts/build-if-stale.ts";
import { CHROMIUM } from "../test/support/chromium.ts";

/*
 * P6: how much JavaScript a browser downloads to show the sign-in page, and a queue page opened
 * by a signed-in member, gzip-compressed as it travels (zlib default level). Each page is opened
 * in Chromium in a fresh context and every JS file it requested before going quiet is counted,
 * once: what the route loads, not a reading of the build's import graph. Goals (issue 10): the
 * sign-in page at most 120 KB, a queue page at most 200 KB.
 *
 * Baseline, measured in the same run: the same app built as one bundle (code splitting off),
 * loaded the same way. The app is served from its build with the API answered by empty
 * envelopes: which code a page loads depends on its route, not on the rows it shows.
 *
 * Prints `P6 signin_js_kb_gz=<n> queue_js_kb_gz=<n>` and, last, the ratio against the baseline:
 * `P6 signin_vs_unsplit=<r> queue_vs_unsplit=<r>`.
 */

const WEB = fileURLToPath(new URL("..", import.meta.url));
const DIST = path.join(WEB, "dist");

export const GOALS_KB = { signin: 120, queue: 200, public: 80 } as const;

/** The traveller's track page (PUBLIC-1, issue 13): its own entry, goal at most 80 KB. */
export const PUBLIC_PATH = "/track-order/100001";

/** The page a member lands on in the bench: New Order, the busiest queue. */
export const QUEUE_PATH = "/admin/recent-order";

/** A stored session the app accepts (it reads the token's payload; the stub API trusts it). */
export const benchSession = (): string => {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const token = `${part({ alg: "HS256", typ: "JWT" })}.${part({ user: { id: "1", name: "Bench Admin", type: "Admin" }, exp: 4_102_444_800 })}.bench`;
  return JSON.stringify({ accessToken: token });
};

/** What the stub API answers: every read an empty list; the live feed is refused (the app tries again later). */
export const stubAnswer = (url: string): { status: number; body: string } => {
  if (url.startsWith("/api/live")) return { status: 204, body: "" };
  const data = /\/get-orders-list\/|\/search-order|\/get-future-months/.test(url) ? [] : null;
  return { status: 200, body: JSON.stringify({ status: 1, message: "OK", data, total: 0 }) };
};

const CONTENT_TYPES: Record<string, string> = { ".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml" };

/** Serves one build: its files, the entry's HTML for app paths (as the API does), the stub API. */
const serve = async (dist: string): Promise<{ base: string; server: Server }> => {
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("/api/")) {
      const { status, body } = stubAnswer(url);
      res.writeHead(status, { "content-type": "application/json" }).end(body);
      return;
    }
    const file = path.join(dist, decodeURIComponent(url.split("?")[0]!));
    const page = /^\/(track-order|get-new-order-details)\//.test(url) ? "track.html" : "index.html";
    const found = file.startsWith(dist) && existsSync(file) && statSync(file).isFile() ? file : path.join(dist, page);
    // A build of one entry has no HTML for the other's paths (the browser's favicon request).
    if (!existsSync(found)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": CONTENT_TYPES[path.extname(found)] ?? "application/octet-stream" }).end(readFileSync(found));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

export interface PageJs {
  readonly files: readonly { readonly file: string; readonly gzBytes: number }[];
  readonly kbGz: number;
}

/** The gzip size of each JS file a page requested, from the build that served it. */
export const measureFiles = (dist: string, requested: readonly string[]): PageJs => {
  const files = [...new Set(requested)].map((file) => ({ file, gzBytes: gzipSync(readFileSync(path.join(dist, file))).length }));
  return { files, kbGz: files.reduce((sum, f) => sum + f.gzBytes, 0) / 1024 };
};

type Page = keyof typeof GOALS_KB;

/** Loads the sign-in page, a queue page and the track page of one build in Chromium; the JS each requested. */
const measureBuild = async <P extends Page>(dist: string, pages: readonly P[]): Promise<Record<P, PageJs>> => {
  const { base, server } = await serve(dist);
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"] });
  try {
    const load = async (target: string, ready: string, session?: string): Promise<PageJs> => {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width: 1366, height: 768 });
      const requested: string[] = [];
      page.on("request", (request) => {
        const { origin, pathname } = new URL(request.url());
        if (origin === base && pathname.endsWith(".js")) requested.push(pathname.slice(1));
      });
      // The stored session is in place before the app's first script runs, as after a sign-in.
      if (session) await page.evaluateOnNewDocument((value) => localStorage.setItem("user", value), session);
      await page.goto(`${base}${target}`);
      await page.waitForSelector(ready, { timeout: 15_000 });
      await page.waitForNetworkIdle({ idleTime: 500 });
      await context.close();
      return measureFiles(dist, requested);
    };
    const visits: Record<Page, () => Promise<PageJs>> = {
      signin: () => load("/", 'input[placeholder="Your Email Address"]'),
      queue: () => load(QUEUE_PATH, "table.queue-table", benchSession()),
      public: () => load(PUBLIC_PATH, "input#track-orderId"),
    };
    const measured: Partial<Record<P, PageJs>> = {};
    for (const page of pages) measured[page] = await visits[page]();
    return measured as Record<P, PageJs>;
  } finally {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  }
};

/**
 * One entry of the same app as one bundle, for the baseline: code splitting off, nothing else
 * changed. The bundler makes one bundle of one entry only, so each entry is built on its own, with
 * its own config (the traveller's pages on Preact, ADR 0038, already one bundle).
 */
const buildUnsplit = async (outDir: string, entry: "index.html" | "track.html"): Promise<void> => {
  const { build } = await import("vite");
  await build({
    root: WEB,
    configFile: path.join(WEB, entry === "track.html" ? "vite.track.config.ts" : "vite.config.ts"),
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, sourcemap: false, rolldownOptions: { input: path.join(WEB, entry), output: { codeSplitting: false } } },
  });
};

const kb = (value: number) => value.toFixed(1);

/** The figures' lines; the last one is the ratio against the baseline. */
export const p6Lines = (split: Record<Page, number>, unsplit: Record<Page, number>): string[] => [
  `P6 signin_js_kb_gz=${kb(split.signin)} queue_js_kb_gz=${kb(split.queue)} public_js_kb_gz=${kb(split.public)}`,
  `P6 signin_vs_unsplit=${(split.signin / unsplit.signin).toFixed(3)} queue_vs_unsplit=${(split.queue / unsplit.queue).toFixed(3)} public_vs_unsplit=${(split.public / unsplit.public).toFixed(3)}`,
];

const main = async () => {
  buildWeb();
  const unsplitDir = await mkdtemp(path.join(tmpdir(), "etd-web-unsplit-"));
  try {
    const split = await measureBuild(DIST, ["signin", "queue", "public"]);
    await buildUnsplit(unsplitDir, "index.html");
    const unsplitConsole = await measureBuild(unsplitDir, ["signin", "queue"]);
    await buildUnsplit(unsplitDir, "track.html");
    const unsplit = { ...unsplitConsole, ...(await measureBuild(unsplitDir, ["public"])) };
    for (const [name, figures] of [["Sign-in page (/)", split.signin], [`Queue page (${QUEUE_PATH})`, split.queue], [`Track page (${PUBLIC_PATH})`, split.public]] as const) {
      console.log(`\n${name}: JavaScript requested (gzip, zlib default level)`);
      for (const { file, gzBytes } of figures.files) console.log(`  ${file.padEnd(52)} ${kb(gzBytes / 1024).padStart(8)} KB`);
      console.log(`  ${"total".padEnd(52)} ${kb(figures.kbGz).padStart(8)} KB`);
    }
    console.log(`\nBaseline, the same app with each entry as one bundle: sign-in ${kb(unsplit.signin.kbGz)} KB, queue ${kb(unsplit.queue.kbGz)} KB, track ${kb(unsplit.public.kbGz)} KB.`);
    const met = (value: number, goal: number) => `${kb(value)} KB (goal ≤ ${goal} KB: ${value <= goal ? "met" : "NOT met"})`;
    console.log(`Sign-in ${met(split.signin.kbGz, GOALS_KB.signin)}; queue ${met(split.queue.kbGz, GOALS_KB.queue)}; track ${met(split.public.kbGz, GOALS_KB.public)}.`);
    const totals = (build: Record<Page, PageJs>) => ({ signin: build.signin.kbGz, queue: build.queue.kbGz, public: build.public.kbGz });
    for (const line of p6Lines(totals(split), totals(unsplit))) console.log(line);
  } finally {
    await rm(unsplitDir, { recursive: true, force: true });
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
