import { createChromiumRenderer } from "../../src/chromium-renderer.ts";

/*
 * A child process for test/chromium-orphans.int.test.ts: renders one PDF through the shared
 * browser, says so on stdout, then waits to be killed without ever closing the browser.
 */

const renderer = createChromiumRenderer();
const pdf = await renderer.render("<!DOCTYPE html><html><body><p>Invoice 2026-000001</p></body></html>");
process.stdout.write(`rendered ${String(pdf.length)}\n`);
setInterval(() => undefined, 60_000);
