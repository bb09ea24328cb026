/*
 * The PDF port (DESIGN §8): HTML in, PDF bytes out. Endpoints build the HTML (pure, testable
 * without a browser); the adapter owns the browser.
 */

export interface PdfRenderer {
  /** The HTML as an A4 PDF. Rejects with `PdfUnavailable` when this server cannot render at all. */
  render(html: string): Promise<Buffer>;
  /** Releases the browser; the renderer is not used afterwards. */
  close(): Promise<void>;
}

/**
 * This server cannot render PDFs (no Chromium, or it would not start). An operator's problem,
 * not the user's: endpoints answer 503 with the message as it is.
 */
export class PdfUnavailable extends Error {
  override readonly name = "PdfUnavailable";
}

export const CHROMIUM_MISSING = "PDF rendering is not available on this server: Chromium is not installed.";
export const CHROMIUM_FAILED = "PDF rendering is not available on this server: Chromium could not be started.";
