import { constants } from "node:fs";
import { access } from "node:fs/promises";
import puppeteer, { type Browser } from "puppeteer-core";
import { CHROMIUM_FAILED, CHROMIUM_MISSING, PdfUnavailable, type PdfRenderer } from "./pdf-renderer.ts";

/*
 * The puppeteer-core adapter: one Chromium, launched on the first render (a server that never
 * renders never starts it) and reused, a fresh page per render, closed after. Pages run without
 * JavaScript: the HTML is ours and static, so a value that slipped past escaping still cannot run.
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

export const createChromiumRenderer = (options: ChromiumRendererOptions = {}): PdfRenderer => {
  const executablePath = options.executablePath ?? chromiumPath();
  let browser: Promise<Browser> | undefined;
  let closed = false;

  const launch = async (): Promise<Browser> => {
    if (!(await chromiumInstalled(executablePath))) throw new PdfUnavailable(CHROMIUM_MISSING);
    try {
      return await puppeteer.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
    } catch (error) {
      console.error(`Chromium at ${executablePath} did not start`, error);
      throw new PdfUnavailable(CHROMIUM_FAILED);
    }
  };

  /** The shared browser; a failed launch or a crashed browser is tried afresh by the next render. */
  const shared = (): Promise<Browser> => {
    if (browser) return browser;
    const launching = launch().then((started) => {
      started.once("disconnected", () => {
        if (browser === launching) browser = undefined;
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
    render: async (html) => {
      if (closed) throw new Error("The PDF renderer has been closed.");
      const page = await (await shared()).newPage();
      try {
        await page.setJavaScriptEnabled(false);
        await page.setContent(html, { waitUntil: "load" });
        return Buffer.from(await page.pdf({ format: "A4", printBackground: true }));
      } finally {
        await page.close().catch(() => undefined);
      }
    },
    close: async () => {
      closed = true;
      const running = browser;
      browser = undefined;
      if (running) await (await running.catch(() => undefined))?.close();
    },
  };
};
