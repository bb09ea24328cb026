import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * A traveller's grant for one order (issue 9 item 4, ADR 0007): proof that this browser passed
 * `track-order` with the order's id and e-mail, so the download page and the document link need
 * nothing else. It is `v1.<orderId>.<expires, seconds since epoch>.<HMAC-SHA256>`, carried in the
 * HttpOnly GRANT_COOKIE: no script reads it, and without the key nobody can make one for another
 * order or stretch its life.
 *
 * The key is derived from the session secret with a label of its own, so a grant can never pass for
 * a session token (nor the other way round) and no second secret has to be configured.
 */

/** How long a grant lasts: long enough to read the page and download, short enough to leak little. */
export const GRANT_TTL_SECONDS = 30 * 60;

const GRANT = /^v1\.(\d{6,20})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface OrderGrants {
  /** A grant for `orderId`, valid for GRANT_TTL_SECONDS from `now`. */
  issue(orderId: string, now: Date): string;
  /** The order a grant opens, or undefined when it is missing, malformed, forged or expired. */
  verify(grant: string | undefined, now: Date): string | undefined;
}

export const createOrderGrants = (sessionSecret: string, ttlSeconds = GRANT_TTL_SECONDS): OrderGrants => {
  const key = createHmac("sha256", sessionSecret).update("etd public order grant v1").digest();
  const mac = (orderId: string, expires: string) => createHmac("sha256", key).update(`v1.${orderId}.${expires}`).digest();

  return {
    issue: (orderId, now) => {
      const expires = String(Math.floor(now.getTime() / 1000) + ttlSeconds);
      return `v1.${orderId}.${expires}.${mac(orderId, expires).toString("base64url")}`;
    },
    verify: (grant, now) => {
      const parts = grant === undefined ? null : GRANT.exec(grant);
      if (!parts) return undefined;
      const [, orderId, expires, signature] = parts as unknown as [string, string, string, string];
      // Compared as text: base64url has several spellings of the same bytes, a grant has one.
      const given = Buffer.from(signature);
      const expected = Buffer.from(mac(orderId, expires).toString("base64url"));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return Number(expires) * 1000 > now.getTime() ? orderId : undefined;
    },
  };
};
