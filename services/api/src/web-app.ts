import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express from "express";
import type { TranslateWidget } from "./api-deps.ts";
import { contentSecurityPolicyHeader, type WidenableDirective } from "./http/security-headers.ts";

/*
 * The built React app (web/dist) served by the API process, so `npm start` is the whole product
 * on one port. It has two entries: the traveller's pages (track.html, PUBLIC-1..3), which load
 * none of the console's code, and the console with sign-in (index.html) for every other path that
 * is not the API's, the metrics' or a file's, so a deep link (/admin/view-order/100234) opens the
 * app, whose router takes over. Vite names assets by content hash: they never change, so browsers
 * keep them for a year; the HTML names the current ones, so it is revalidated on every load.
 */

export const WEB_DIST = fileURLToPath(new URL("../../../web/dist", import.meta.url));

/** Paths the app never answers with HTML: a missing asset must stay a 404, not HTML. */
const NOT_THE_APP = /^\/(api|metrics|uploads|assets)(\/|$)/;

/** The traveller's pages (PUBLIC-1, PUBLIC-2). */
const PUBLIC_PAGES = /^\/(track-order|get-new-order-details)(\/|$)/;

const IMMUTABLE = "public, max-age=31536000, immutable";

export interface WebAppOptions {
  readonly dist?: string;
  /** Served over HTTPS: the public pages' policy must say so like every other answer's. */
  readonly https: boolean;
  readonly translateWidget?: TranslateWidget | undefined;
}

/** Where the page reads the widget's address (web/src/public/translate-widget.ts). */
const WIDGET_META = '<meta name="translate-widget" content="" />';

const WIDGET_DIRECTIVES: readonly WidenableDirective[] = ["script-src", "style-src", "img-src", "connect-src", "font-src", "frame-src"];

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * What the public entry's HTML gets when a widget is configured: its address in the meta tag and
 * a policy that allows its origins. Fixed at start (the setting does not change while running);
 * the HTML itself is read per request, like index.html, so a rebuild of the app is served at once.
 */
const widgetOnPage = (options: WebAppOptions): { meta: string; policy: string } | undefined => {
  const widget = options.translateWidget;
  if (widget === undefined) return undefined;
  const origins = [new URL(widget.scriptUrl).origin, ...widget.origins];
  return {
    meta: `<meta name="translate-widget" content="${escapeAttribute(widget.scriptUrl)}" />`,
    policy: contentSecurityPolicyHeader({ https: options.https, extraSources: Object.fromEntries(WIDGET_DIRECTIVES.map((d) => [d, origins])) }),
  };
};

let hinted = false;

/** Mounts the app when it has been built; otherwise says how to build it, once per process. */
export const mountWebApp = (app: express.Express, options: WebAppOptions): void => {
  const dist = options.dist ?? WEB_DIST;
  const indexFile = path.join(dist, "index.html");
  if (!existsSync(indexFile) || !existsSync(path.join(dist, "track.html"))) {
    if (!hinted) console.warn(`The web app is not built (${indexFile} is missing): run \`npm run build -w @etd/web\` to serve it.`);
    hinted = true;
    return;
  }
  const trackFile = path.join(dist, "track.html");
  const widget = widgetOnPage(options);
  // The app's files travel compressed (brotli or gzip, as the browser accepts): React alone is
  // 222 KB as built and 71 KB gzipped, the difference between a tracker that shows in one second
  // on a phone's network and one that takes three. Here only, not on /api: the live feed is a
  // stream that must not wait in a compressor's buffer (the API's routes answer before this runs).
  app.use(compression());
  app.use(
    express.static(dist, {
      index: false,
      setHeaders: (res, file) => {
        const isAsset = path.relative(dist, file).split(path.sep)[0] === "assets";
        res.setHeader("cache-control", isAsset ? IMMUTABLE : "no-cache");
      },
    }),
  );
  app.use((req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || NOT_THE_APP.test(req.path)) {
      next();
      return;
    }
    res.setHeader("cache-control", "no-cache");
    if (PUBLIC_PAGES.test(req.path)) {
      readFile(trackFile, "utf8").then((html) => {
        if (widget === undefined) return void res.type("html").send(html);
        res.setHeader("content-security-policy", widget.policy);
        // A function, not a string: `$&` or `$\`` in the URL must stay text, not replacement patterns.
        res.type("html").send(html.replace(WIDGET_META, () => widget.meta));
      }, next);
      return;
    }
    res.sendFile(indexFile, (error) => {
      if (error) next(error);
    });
  });
};
