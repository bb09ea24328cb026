import { NO_ORDER_WITH_ID, TRACK_FIRST, type PublicDownloadEntry, type PublicDownloadHistory } from "@etd/contract";
import { toOrderId } from "@etd/contract/requests";
import { downloadHistory, orderDetails } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import type { Handlers } from "../http/endpoint.ts";
import { GRANT_REFUSED_STATUS, hasGrantFor, publicWaitMs } from "../http/public-access.ts";
import { tooManyRequests } from "../http/rate-limit.ts";
import { fail, ok, type Reply } from "../http/reply.ts";

/*
 * The order detail reads (ORDER-1..9, PUBLIC-2) from the order_details projection.
 *
 * - GET /admin/get-orders-details/{orderId} (001 §7): `data` is the order document with its
 *   mailHistory, uploadDoc, downloadHistory, remark list and transaction details.
 * - POST /front/get-download-history {orderId} (001 §7): `data`, `mainResult` and `path` at the
 *   top level, beside status and message, because the existing client reads them there. The
 *   answer has the same five keys whatever happens, so the page never reads a missing key. It
 *   holds nothing about staff and nothing personal but the traveller's first name (and a masked
 *   IP, see maskIp). The payload is only the order id, as the spec's client sends it; the visitor
 *   must also hold the grant track-order gave for that order (ADR 0007), or gets the same refusal
 *   whatever the id, so the page is no way to list orders. Rate-limited like every public call.
 *
 * The audit timelines, from the same read model, are the Audit area's (audit-timeline-queries.ts).
 */

const orderNotFound = (orderId: string) => fail(404, `Order ${orderId} was not found.`);

/** The public answer: always these five keys (001 §7), a refusal's empty. */
const publicReply = (message: string, found: PublicDownloadHistory): Reply<readonly PublicDownloadEntry[]> =>
  ok(message, found.data, { mainResult: found.mainResult, path: found.path });
const publicRefusal = (httpStatus: number, message: string): Reply<never> => fail(httpStatus, message, [], { mainResult: null, path: { file1: null } });

export const orderDetailQueryHandlers = (deps: ApiDeps) =>
  ({
    getOrderDetails: async ({ params }) => {
      const orderId = toOrderId(params.orderId);
      const details = await orderDetails(deps.readDb.query, orderId);
      return details ? ok("Order details loaded.", details) : orderNotFound(orderId);
    },
    getDownloadHistory: {
      // Refusals too have the page's five keys.
      refusal: (refused) => publicRefusal(refused.httpStatus, refused.body.message),
      handle: async ({ req, ip, input }) => {
        const waitMs = publicWaitMs(deps, "history", ip);
        if (waitMs > 0) return publicRefusal(429, tooManyRequests(waitMs));
        const orderId = toOrderId(input.orderId);
        if (!hasGrantFor(deps, req, orderId)) return publicRefusal(GRANT_REFUSED_STATUS, TRACK_FIRST);
        const found = await downloadHistory(deps.readDb.query, orderId);
        // Erased since the grant was given.
        if (!found) return publicRefusal(404, NO_ORDER_WITH_ID);
        return publicReply(found.data.length === 0 ? "No record found" : "Download history loaded.", found);
      },
    },
  }) satisfies Partial<Handlers>;
