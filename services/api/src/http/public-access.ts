import type express from "express";
import type { ApiDeps } from "../api-deps.ts";
import { GRANT_TTL_SECONDS } from "../auth/order-grant.ts";
import { throttleKey } from "./client-address.ts";
import { cookieFromThisSite, GRANT_COOKIE } from "./cookies.ts";
import type { CookieChange } from "./reply.ts";

/*
 * What every public request goes through (issue 9 item 4, ADR 0007): a rate limit per endpoint and
 * address, and, past track-order, the grant for the very order it asks about.
 */

/** The endpoints' own buckets, so downloading does not eat into what tracking may do. */
export type PublicScope = "track" | "history" | "download" | "document";

/** 0 when the request may go ahead, else milliseconds to wait. Counts the request either way. */
export const publicWaitMs = (deps: Pick<ApiDeps, "publicLimiter">, scope: PublicScope, ip: string): number =>
  deps.publicLimiter.take(`${scope}:${throttleKey(ip)}`);

/**
 * One message for a missing, expired, forged and another order's grant: the refusal must not say
 * which, or it would tell whether an order id exists.
 */
export const GRANT_REFUSED_STATUS = 403;

/** True when the request carries a valid grant for `orderId`. */
export const hasGrantFor = (deps: Pick<ApiDeps, "grants" | "now">, req: express.Request, orderId: string): boolean =>
  deps.grants.verify(cookieFromThisSite(req, GRANT_COOKIE), deps.now()) === orderId;

/** The cookie track-order sets: path "/" so that the document link (/uploads/…) carries it too. */
export const grantCookie = (deps: Pick<ApiDeps, "grants" | "now">, orderId: string): CookieChange => ({
  name: GRANT_COOKIE,
  value: deps.grants.issue(orderId, deps.now()),
  path: "/",
  maxAgeSeconds: GRANT_TTL_SECONDS,
});
