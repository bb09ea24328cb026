import { NO_ORDER_WITH_ID_AND_EMAIL, TRACK_FIRST } from "@etd/contract";
import { createHash, timingSafeEqual } from "node:crypto";
import type { OrderId } from "@etd/events";
import { parsePosition } from "@etd/event-store";
import { waitForPosition } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import { recordDownload } from "../commands/record-download.ts";
import { refusalReply } from "../commands/run-command.ts";
import type { Handlers } from "../http/endpoint.ts";
import { GRANT_REFUSED_STATUS, grantCookie, hasGrantFor, publicWaitMs } from "../http/public-access.ts";
import { tooManyRequests } from "../http/rate-limit.ts";
import { fail, ok, withCookies } from "../http/reply.ts";

/*
 * The traveller's side (PUBLIC-1, PUBLIC-2, DESIGN §6, issue 9 item 4, ADR 0007). A traveller
 * proves who they are with the order id and the e-mail of the application, both matching, and gets
 * a short-lived grant for that order (an HttpOnly cookie) that the download page and the document
 * link need. Every public request is rate-limited per endpoint and address; failed lookups also
 * count against the longer throttle of guesses (throttle.ts).
 *
 * A wrong id and a wrong e-mail must not be told apart, by the answer or by its time: both run the
 * same single indexed read of the order's e-mail and the same constant-time comparison (against a
 * dummy when there is no order), count the same failure and get the same reply.
 */

/** How long a download's answer waits for the history to show it (milliseconds under load). */
const HISTORY_WAIT_MS = 2000;


/** Hashed first, so the comparison takes the same time whatever the lengths. */
const emailDigest = (email: string) => createHash("sha256").update(email.trim().toLowerCase()).digest();

/** Hashed in place of the e-mail when there is no order, so both cases hash the same amount; never matches. */
const NO_ORDER_EMAIL = "\u0000no order@nowhere.invalid";

/**
 * The order's e-mail and whether a document is ready, by primary key from the order_details read
 * model (erased orders have no e-mail). The same statement whether or not the id exists, rather
 * than folding a stream only when there is one.
 */
const lookUpOrder = async (deps: ApiDeps, orderId: string) => {
  const rows = await deps.readDb.query(
    `select document->>'email' as email, file_name from order_details where order_id = $1 and not erased`,
    [orderId],
  );
  const row = rows[0];
  return { email: (row?.email as string | null | undefined) ?? undefined, documentReady: row?.file_name !== null && row?.file_name !== undefined };
};

export const publicHandlers = (deps: ApiDeps) =>
  ({
    trackOrder: async ({ input, ip }) => {
      const rateWaitMs = publicWaitMs(deps, "track", ip);
      if (rateWaitMs > 0) return fail(429, tooManyRequests(rateWaitMs));
      const orderId = input.orderId.trim();
      // Guesses are throttled like sign-ins, the order id being the subject: per (order, address)
      // and per address, and slowed per order whatever the address (throttle.ts). Counted as a
      // failure before the lookup, in every API process, and taken back if it matches, so that
      // parallel guesses cannot all pass the limit.
      const attempt = await deps.trackThrottle.attempt(orderId, ip);
      if (attempt.refused) {
        return fail(429, `Too many attempts. Please try again in ${Math.max(1, Math.ceil(attempt.retryAfterMs / 60_000))} minutes.`);
      }
      const order = await lookUpOrder(deps, orderId);
      const expected = emailDigest(order.email ?? NO_ORDER_EMAIL);
      const matches = timingSafeEqual(emailDigest(input.email), expected) && order.email !== undefined;
      if (!matches) return fail(404, NO_ORDER_WITH_ID_AND_EMAIL);
      await deps.trackThrottle.recordSuccess(orderId, ip);
      return withCookies(ok("Your order has been found.", { orderId, documentReady: order.documentReady }), grantCookie(deps, orderId));
    },
    downloadDocument: async ({ req, input, ip, requestId }) => {
      const waitMs = publicWaitMs(deps, "download", ip);
      if (waitMs > 0) return fail(429, tooManyRequests(waitMs));
      const orderId = input.orderId.trim();
      if (!hasGrantFor(deps, req, orderId)) return fail(GRANT_REFUSED_STATUS, TRACK_FIRST);
      // The decider records only the order's current document: any other name is refused.
      const fileName = input.file1.trim();
      const ran = await recordDownload(deps, req, { requestId, ip }, orderId as OrderId, fileName);
      // Sent without an expected version, a command is refused by the decider only, never as changed since.
      if (!ran.ok) return refusalReply(ran.refusal);
      // The page reloads the history next and must find this download in it. A traveller cannot
      // ask a read to wait (only staff may send X-Read-After), so this answer waits, briefly and
      // for its own write only, until the history holds it.
      const position = ran.position === undefined ? undefined : parsePosition(ran.position);
      if (position !== undefined) await waitForPosition(deps.readDb, position, ["order_details"], HISTORY_WAIT_MS);
      const link = `/uploads/docs/${orderId}/${encodeURIComponent(fileName)}`;
      // Only the link: the log position would tell a traveller how busy the whole office is.
      return ok("Your download will start shortly.", { link });
    },
  }) satisfies Partial<Handlers>;
