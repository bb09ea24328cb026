import { GATEWAYS_STREAM, staffStream, type StaffId } from "@etd/events";
import { DownloadHistoryRequest, OrderIdParam, StaffIdParam, TimelineQuery, toOrderId } from "@etd/contract/requests";
import { AUDIT_PAGE_MAX, auditTimeline, downloadHistory, orderDetails, type AuditTarget } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import { publicEndpoint, staffEndpoint, type Endpoint } from "../http/endpoint.ts";
import { GRANT_REFUSED, GRANT_REFUSED_STATUS, hasGrantFor, publicWaitMs } from "../http/public-access.ts";
import { tooManyRequests } from "../http/rate-limit.ts";
import { fail, ok, type Reply } from "../http/reply.ts";
import { PUBLIC_RATE_LIMITED, withAnswers } from "../http/answers.ts";

/*
 * The order detail reads (ORDER-1..9, PUBLIC-2, CARD-4) from the order_details projection.
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
 * - GET /audit/orders/{orderId}/timeline, /audit/staff/{staffId}/timeline and
 *   /audit/gateways/timeline (ours, Admin and Manager): the readable audit lines, oldest first,
 *   `?limit=` (1-500, default 100) and `?after=` (a stream position, from `next`).
 */

const orderNotFound = (orderId: string) => fail(404, `Order ${orderId} was not found.`);

/** The public answer: always these five keys (001 §7). */
const publicReply = (
  httpStatus: number,
  message: string,
  found?: Awaited<ReturnType<typeof downloadHistory>>,
): Reply => ({
  httpStatus,
  body: {
    status: found ? 1 : 0,
    message,
    data: found?.data ?? [],
    mainResult: found?.mainResult ?? null,
    path: found?.path ?? { file1: null },
  },
});

const PUBLIC_NOT_FOUND = "We could not find an order with this Order ID.";

const isStaffId = (value: string) => /^[A-Za-z0-9_-]{1,64}$/.test(value);

export const orderDetailQueryEndpoints = (deps: ApiDeps): Endpoint[] => {
  const timeline = async (paging: typeof TimelineQuery.Type, target: AuditTarget, missing: () => Reply): Promise<Reply> => {
    const { limit, after } = paging;
    const page = await auditTimeline(deps.readDb.query, target, {
      limit: limit === undefined ? undefined : Math.min(Number(limit), AUDIT_PAGE_MAX),
      after: after === undefined ? undefined : Number(after),
    });
    if (page.lines.length === 0 && after === undefined) return missing();
    return ok("Audit timeline loaded.", page);
  };

  return [
    staffEndpoint({
      method: "get",
      path: "/admin/get-orders-details/:orderId",
      guard: "orders.read",
      reads: ["order_details"],
      summary: "One order for the detail page: its fields, Email History, current document, Download History, comments and transaction details (ORDER-1..9)",
      params: OrderIdParam,
      answers: { 404: "The order does not exist" },
      handle: async ({ params }) => {
        const orderId = toOrderId(params.orderId);
        const details = await orderDetails(deps.readDb.query, orderId);
        return details ? ok("Order details loaded.", details) : orderNotFound(orderId);
      },
    }),
    publicEndpoint({
      method: "post",
      readOnly: true,
      path: "/front/get-download-history",
      reads: ["order_details"],
      summary: "With the order's grant from track-order: the public download page's downloads of the document, the order's greeting and the current file (PUBLIC-2)",
      body: DownloadHistoryRequest,
      // Refusals too have the page's five keys.
      refusal: (refused) => publicReply(refused.httpStatus, refused.body.message),
      answers: withAnswers(PUBLIC_RATE_LIMITED, { [GRANT_REFUSED_STATUS]: GRANT_REFUSED, 404: PUBLIC_NOT_FOUND }),
      handle: async ({ req, ip, input }) => {
        const waitMs = publicWaitMs(deps, "history", ip);
        if (waitMs > 0) return publicReply(429, tooManyRequests(waitMs));
        const orderId = toOrderId(input.orderId);
        if (!hasGrantFor(deps, req, orderId)) return publicReply(GRANT_REFUSED_STATUS, GRANT_REFUSED);
        const found = await downloadHistory(deps.readDb.query, orderId);
        // Erased since the grant was given.
        if (!found) return publicReply(404, PUBLIC_NOT_FOUND);
        return publicReply(200, found.data.length === 0 ? "No record found" : "Download history loaded.", found);
      },
    }),
    staffEndpoint({
      method: "get",
      path: "/audit/orders/:orderId/timeline",
      guard: "audit.read",
      reads: ["order_details"],
      summary: "An order's audit timeline: one readable line per event, who, when and what changed (CARD-4)",
      params: OrderIdParam,
      query: TimelineQuery,
      answers: { 404: "The order does not exist" },
      strictQuery: true,
      handle: async ({ params, input }) => {
        const orderId = toOrderId(params.orderId);
        return timeline(input, { orderId }, () => orderNotFound(orderId));
      },
    }),
    staffEndpoint({
      method: "get",
      path: "/audit/staff/:staffId/timeline",
      guard: "audit.read",
      reads: ["order_details"],
      summary: "A team member's audit timeline: added, updated, password changes, removed (CARD-4)",
      params: StaffIdParam,
      query: TimelineQuery,
      strictQuery: true,
      answers: { 404: "Team member not found." },
      handle: async ({ params, input }) => {
        const { staffId } = params;
        const missing = () => fail(404, "Team member not found.");
        return isStaffId(staffId) ? timeline(input, { streamId: staffStream(staffId as StaffId) }, missing) : missing();
      },
    }),
    staffEndpoint({
      method: "get",
      path: "/audit/gateways/timeline",
      guard: "audit.read",
      reads: ["order_details"],
      summary: "The payment gateways' audit timeline: registrations and selections per domain (CARD-4)",
      query: TimelineQuery,
      strictQuery: true,
      handle: async ({ input }) => timeline(input, { streamId: GATEWAYS_STREAM }, () => ok("Audit timeline loaded.", { lines: [], next: null })),
    }),
  ];
};
