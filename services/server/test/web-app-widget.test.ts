import { mkdtemp, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "../src/config.ts";
import { mountWebApp } from "@etd/api/internal/web-app.ts";

/*
 * Issue 13 review (attacker's view), PUBLIC-3: the widget's address is written into the public
 * page's <meta> with String.replace and a replacement *string*, so "$`", "$&" and "$$" in the URL
 * are replacement patterns, not text. A URL that passes the config check ("$`" survives URL
 * parsing in a query) then pastes the page's own HTML, quotes included, into the attribute.
 */

const TRACK_HTML = '<!doctype html><head><meta name="description" content="Track your order" />\n<meta name="translate-widget" content="" /><script type="module" src="/assets/track.js"></script></head>';

describe("issue 13: the translation widget's URL reaches the public page as text (PUBLIC-3)", () => {
  let dist: string;

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), "etd-widget-attack-"));
    await writeFile(path.join(dist, "index.html"), '<div id="root"></div>');
    await writeFile(path.join(dist, "track.html"), TRACK_HTML);
  });

  afterAll(async () => {
    await rm(dist, { recursive: true, force: true });
  });

  for (const suffix of ["$`", "$&", "$$"]) {
    it(`PUBLIC-3: a widget URL ending in ${suffix} is written into the meta as the URL, and the page keeps one description meta`, async () => {
      const scriptUrl = `https://translate.example/element.js?cb=translateWidgetInit&q=${suffix}`;
      // The setting passes the start-up check: this is what an operator can configure.
      const { translateWidget } = readConfig({ TRANSLATE_WIDGET_URL: scriptUrl, DEMO: "1" });
      expect(translateWidget?.scriptUrl).toBe(scriptUrl);

      const app = express();
      mountWebApp(app, { dist, https: false, translateWidget });
      const server = app.listen(0, "127.0.0.1");
      await new Promise((resolve) => server.once("listening", resolve));
      try {
        const html = await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/track-order/100234`)).text();
        const escaped = scriptUrl.replace(/&/g, "&amp;");
        expect(html).toContain(`<meta name="translate-widget" content="${escaped}" />`);
        expect(html.match(/<meta name="description"/g)).toHaveLength(1);
        expect(html.match(/<meta name="translate-widget"/g)).toHaveLength(1);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  }
});
