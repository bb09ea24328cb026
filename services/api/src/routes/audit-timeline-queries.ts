import { TEAM_MEMBER_NOT_FOUND, type AuditTimelinePage } from "@etd/contract";
import { toOrderId, type TimelineQuery } from "@etd/contract/requests";
import { GATEWAYS_STREAM, staffStream, type StaffId } from "@etd/events";
import { AUDIT_PAGE_MAX, auditTimeline, type AuditTarget } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import type { Handlers } from "../http/endpoint.ts";
import { fail, ok, type Reply } from "../http/reply.ts";

/*
 * The audit timelines (CARD-4), Admin and Manager: an order's, a team member's and the payment
 * gateways' readable lines from the order_details read model (the order page's Audit tab shows
 * the order's), oldest first, `?limit=` (1-500, default 100) and `?after=` (a stream position,
 * from `next`).
 */

const isStaffId = (value: string) => /^[A-Za-z0-9_-]{1,64}$/.test(value);

export const auditTimelineHandlers = (deps: ApiDeps) => {
  /** One page of the target's lines; a first page with none means the target does not exist. */
  const timeline = async (
    paging: typeof TimelineQuery.Type,
    target: AuditTarget,
    missing: () => Reply<AuditTimelinePage>,
  ): Promise<Reply<AuditTimelinePage>> => {
    const { limit, after } = paging;
    const page = await auditTimeline(deps.readDb.query, target, {
      limit: limit === undefined ? undefined : Math.min(Number(limit), AUDIT_PAGE_MAX),
      after: after === undefined ? undefined : Number(after),
    });
    if (page.lines.length === 0 && after === undefined) return missing();
    return ok("Audit timeline loaded.", page);
  };

  return {
    getOrderTimeline: async ({ params, input }) => {
      const orderId = toOrderId(params.orderId);
      return timeline(input, { orderId }, () => fail(404, `Order ${orderId} was not found.`));
    },
    getStaffTimeline: async ({ params, input }) => {
      const { staffId } = params;
      const missing = () => fail(404, TEAM_MEMBER_NOT_FOUND);
      return isStaffId(staffId) ? timeline(input, { streamId: staffStream(staffId as StaffId) }, missing) : missing();
    },
    // One timeline for every domain's gateways, which always exists: none yet is an empty page, not a 404.
    getGatewaysTimeline: async ({ input }) => timeline(input, { streamId: GATEWAYS_STREAM }, () => ok("Audit timeline loaded.", { lines: [], next: null })),
  } satisfies Partial<Handlers>;
};
