import type express from "express";

/*
 * The two cookies the API sets. Both are HttpOnly (no script reads them) and SameSite=Strict (no
 * other site's page makes the browser send them). Staff commands never accept a cookie: they need
 * the Authorization header. The one public command, recording a download (spec'd as a POST), goes
 * on the grant cookie; besides SameSite=Strict, its body must be JSON, which no other site can send
 * without a CORS preflight this API never answers.
 *
 * - SESSION_COOKIE: the staff session token, for what a browser fetches without headers: the live
 *   feed (EventSource) and document links.
 * - GRANT_COOKIE: a traveller's short-lived grant for one order, set by track-order.
 */

export const SESSION_COOKIE = "etd_session";
export const GRANT_COOKIE = "etd_grant";

/** The value of one cookie of the request, or undefined. */
export const readCookie = (req: express.Request, name: string): string | undefined => {
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
