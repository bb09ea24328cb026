import { createHash } from "node:crypto";
import type express from "express";
import helmet from "helmet";

/*
 * Security headers on every answer, the app's pages and the API alike (issue 9 item 9), set by
 * helmet rather than by hand so that they follow the browsers' current meaning of each header.
 *
 * The Content-Security-Policy is written here and nowhere else. The built app (web/dist) is one
 * module script and one stylesheet from our own origin, with no inline script or style (checked
 * by test/security-headers.int.test.ts), so every fetch directive allows 'self' only. Anything a
 * feature later needs from elsewhere (e.g. a translation script, issue 13) is passed in as
 * `extraSources`, per directive, so the policy stays in one place and the addition is visible.
 */

/**
 * The one inline style the app inserts: react-aria's press handling (usePress, react-aria 3.53)
 * adds this rule as a <style> element once per page. It is allowed by its hash, which admits
 * exactly this text and nothing else; if a react-aria upgrade changes the text, the browser test
 * (web/test/csp.e2e.test.ts) reports the violation and this constant must follow.
 */
export const REACT_ARIA_PRESSABLE_STYLE = "@layer {\n  [data-react-aria-pressable] {\n    touch-action: pan-x pan-y pinch-zoom;\n  }\n}";

const hashSource = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

/** The fetch directives a caller may widen; everything else stays as written here. */
export type WidenableDirective = "script-src" | "style-src" | "img-src" | "connect-src" | "font-src" | "frame-src";

export interface SecurityHeaderOptions {
  /**
   * Served over HTTPS (TLS=1): browsers are told to use HTTPS only (HSTS) and insecure
   * subresource URLs are upgraded. Never sent over plain HTTP: a browser would then refuse the
   * plain-HTTP install (e.g. http://127.0.0.1:3000) for a year.
   */
  readonly https: boolean;
  /** More origins for a directive, on top of 'self'. */
  readonly extraSources?: Partial<Record<WidenableDirective, readonly string[]>>;
}

/** The policy's directives, by name, in the order they are sent. */
export const contentSecurityPolicy = ({ https, extraSources = {} }: SecurityHeaderOptions): Record<string, string[]> => {
  const self = (directive: WidenableDirective, ...more: string[]) => ["'self'", ...more, ...(extraSources[directive] ?? [])];
  return {
    "default-src": ["'self'"],
    // No inline script, no eval, no event-handler attributes: only the app's own files.
    "script-src": self("script-src"),
    "script-src-attr": ["'none'"],
    // No inline <style> or style="" in markup (React sets styles through the DOM, which CSP
    // allows), except the one style element named above, by its hash.
    "style-src": self("style-src", hashSource(REACT_ARIA_PRESSABLE_STYLE)),
    // data: for small images CSS may inline.
    "img-src": self("img-src", "data:"),
    "font-src": self("font-src"),
    // The API and the live feed (EventSource) are on the same origin.
    "connect-src": self("connect-src"),
    "frame-src": self("frame-src"),
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    // No page of ours may be framed by anyone, ourselves included (clickjacking).
    "frame-ancestors": ["'none'"],
    ...(https ? { "upgrade-insecure-requests": [] } : {}),
  };
};

/**
 * The policy as the header spells it, for the one kind of answer that carries a wider policy than
 * the rest: a public page when a translation widget is configured (web-app.ts).
 */
export const contentSecurityPolicyHeader = (options: SecurityHeaderOptions): string =>
  Object.entries(contentSecurityPolicy(options))
    .map(([name, values]) => [name, ...values].join(" "))
    .join(";");

/** One year, in seconds: what browsers' HSTS preload checks expect as a minimum. */
const HSTS_MAX_AGE = 365 * 24 * 60 * 60;

/** The headers every answer carries. */
export const securityHeaders = (options: SecurityHeaderOptions): express.RequestHandler =>
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(options) },
    // Only this host: its subdomains may be other services we cannot vouch for.
    strictTransportSecurity: options.https ? { maxAge: HSTS_MAX_AGE, includeSubDomains: false } : false,
    // The older header for browsers that do not read frame-ancestors.
    xFrameOptions: { action: "deny" },
    // Links out of the app carry no path (order ids, tracking pages) to other sites.
    referrerPolicy: { policy: "no-referrer" },
    xContentTypeOptions: true,
  }) as express.RequestHandler;

/**
 * API answers hold personal data and session state: no browser or proxy may keep a copy
 * (`no-store`), not even to revalidate. Set before the handler runs; a handler that must say
 * something else about caching (none should) would override it.
 */
export const noStore: express.RequestHandler = (_req, res, next) => {
  res.setHeader("cache-control", "no-store");
  next();
};
