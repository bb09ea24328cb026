import { constants } from "node:fs";
import { access } from "node:fs/promises";
import type { Browser, Page } from "puppeteer";
import { CHROMIUM_FAILED, CHROMIUM_MISSING, PdfUnavailable, type PdfRenderer } from "./pdf-renderer.ts";
import { turns } from "./turns.ts";

/*
 * The puppeteer adapter (the card's `puppeteer`, driving the system's Chromium: it never downloads
 * a browser, see .puppeteerrc.cjs): one Chromium, launched on the first render (a server that never
 * renders never starts it, nor loads puppeteer: its 200 modules were a sixth of the API's start-up)
 * and reused. Pages are reused too: opening a tab costs about as much as printing the PDF (P8,
 * bench/pdf.bench.ts), so a render takes an idle page, replaces its whole document with the new
 * HTML and gives it back; a page whose render failed is closed, never reused. At most
 * RENDERS_AT_ONCE render at a time, whoever asks (a page costs about 120 MB of Chromium's memory
 * while it prints: issue 28's attacker review took it to 2.5 GB with 12 packs at once); the rest
 * wait their turn in the order they came, so a burst costs time, never the machine's memory. Pages
 * run without JavaScript: the HTML is ours and static, so a value that slipped past escaping still
 * cannot run, and nothing of one document can survive into the next.
 *
 * The browser is driven over a pipe (fds 3 and 4), not a WebSocket: when this process dies, even
 * by SIGKILL with no chance to close it, the pipe closes and Chromium exits with it instead of
 * living on as an orphan (test/chromium-orphans.int.test.ts).
 */

export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

export interface ChromiumRendererOptions {
  /** Defaults to CHROMIUM_PATH, then /usr/bin/chromium. */
  readonly executablePath?: string;
}

export const chromiumPath = (env: NodeJS.ProcessEnv = process.env): string => env.CHROMIUM_PATH?.trim() || DEFAULT_CHROMIUM_PATH;

/** True when the Chromium binary is there and executable; says nothing about whether it starts. */
export const chromiumInstalled = async (executablePath = chromiumPath()): Promise<boolean> => {
  try {
    await access(executablePath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Pages printing at once: two cores print no faster with more, and each holds its memory until done. */
const RENDERS_AT_ONCE = 2;
/** Idle pages kept for the next renders: one for each render at a time, so pages are opened only at first and after a failure. */
const MAX_IDLE_PAGES = RENDERS_AT_ONCE;

const openPage = async (browser: Browser): Promise<Page> => {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  return page;
};

export const createChromiumRenderer = (options: ChromiumRendererOptions = {}): PdfRenderer => {
  const executablePath = options.executablePath ?? chromiumPath();
  let browser: Promise<Browser> | undefined;
  let closed = false;
  /** Pages of the current browser waiting for the next render. */
  let idle: Page[] = [];
  const inTurn = turns(RENDERS_AT_ONCE);

  const launch = async (): Promise<Browser> => {
    if (!(await chromiumInstalled(executablePath))) throw new PdfUnavailable(CHROMIUM_MISSING);
    try {
      const { default: puppeteer } = await import("puppeteer");
      return await puppeteer.launch({ executablePath, headless: true, pipe: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
    } catch (error) {
      console.error(`Chromium at ${executablePath} did not start`, error);
      throw new PdfUnavailable(CHROMIUM_FAILED);
    }
  };

  const takeIdle = (current: Browser): Page | undefined => {
    while (idle.length > 0) {
      const page = idle.pop()!;
      if (page.browser() === current && !page.isClosed()) return page;
    }
    return undefined;
  };

  /** The shared browser; a failed launch or a crashed browser is tried afresh by the next render. */
  const shared = (): Promise<Browser> => {
    if (browser) return browser;
    const launching = launch().then((started) => {
      started.once("disconnected", () => {
        if (browser === launching) browser = undefined;
        idle = idle.filter((page) => page.browser() !== started);
      });
      return started;
    });
    launching.catch(() => {
      if (browser === launching) browser = undefined;
    });
    browser = launching;
    return launching;
  };

  return {
    render: (html) =>
      inTurn(async () => {
        // Checked once the turn comes: the renderer may have closed while this one waited.
        if (closed) throw new Error("The PDF renderer has been closed.");
        const current = await shared();
        const page = takeIdle(current) ?? (await openPage(current));
        let reusable = false;
        try {
          await page.setContent(html, { waitUntil: "load" });
          const pdf = Buffer.from(await page.pdf({ format: "A4", printBackground: true }));
          reusable = true;
          return pdf;
        } finally {
          if (reusable && !closed && idle.length < MAX_IDLE_PAGES && current.connected) idle.push(page);
          else await page.close().catch(() => undefined);
        }
      }),
    close: async () => {
      closed = true;
      idle = [];
      const running = browser;
      browser = undefined;
      if (running) await (await running.catch(() => undefined))?.close();
    },
  };
};
