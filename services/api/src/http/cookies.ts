import type express from "express";

/*
 * The two cookies the API sets. Both are HttpOnly (no script reads them) and SameSite=Strict (no
 * other site's page makes the browser send them). Staff commands never accept a cookie: they need
 * the Authorization header. The one public command, recording a download (spec'd as a POST), goes
 * on the grant cookie; besides SameSite=Strict, its body must be JSON, which no other site can send
 * without a CORS preflight this API never answers.
 *
 * - SESSION_COOKIE: the staff session token, for what a browser fetches without headers: the live
 *   feed (EventSource), document links and CSV exports.
 * - GRANT_COOKIE: a traveller's short-lived grant for one order, set by track-order.
 *
 * Both are read only through `cookieFromThisSite`, so every read a cookie signs refuses a request
 * from another site alike (issue 25).
 */

export const SESSION_COOKIE = "etd_session";
export const GRANT_COOKIE = "etd_grant";

/** The value of one cookie of the request, or undefined. */
const readCookie = (req: express.Request, name: string): string | undefined => {
  const header = req.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
};

/**
 * The value of one cookie, unless the browser says the request came from another site: the one
 * check for every read a cookie signs (exports, the live feed, document links, a traveller's
 * grant). SameSite=Strict keeps the cookie from other sites but not from a sibling subdomain (the
 * customer-facing site), and Sec-Fetch-Site tells those apart: only "same-origin" and "none" (an
 * address typed, a bookmark) count. A client too old to send the header (or curl) is left to
 * SameSite. A refused cookie counts as no cookie: the request gets the answer it would get without.
 */
export const cookieFromThisSite = (req: express.Request, name: string): string | undefined => {
  const site = req.get("sec-fetch-site");
  return site === undefined || site === "same-origin" || site === "none" ? readCookie(req, name) : undefined;
};

export interface CookieOptions {
  /** Seconds until the browser drops it; 0 clears it. */
  readonly maxAgeSeconds: number;
  readonly path: string;
  /** Set behind TLS (HSTS configured): the browser then sends it over HTTPS only. */
  readonly secure: boolean;
}

export const setCookie = (res: express.Response, name: string, value: string, { maxAgeSeconds, path, secure }: CookieOptions): void => {
  res.cookie(name, value, { httpOnly: true, sameSite: "strict", secure, path, maxAge: maxAgeSeconds * 1000 });
};

export const clearCookie = (res: express.Response, name: string, { path, secure }: Omit<CookieOptions, "maxAgeSeconds">): void => {
  res.clearCookie(name, { httpOnly: true, sameSite: "strict", secure, path });
};
