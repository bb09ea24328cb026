import type { ApiDeps } from "../api-deps.ts";
import { joinHandlers } from "../http/endpoint.ts";
import type { MemberSlots } from "../http/member-slots.ts";
import { auditChainHandlers } from "./audit-chain-routes.ts";
import { auditLogHandlers } from "./audit-log-queries.ts";
import { auditOrderHandlers } from "./audit-order-queries.ts";
import { auditTimelineHandlers } from "./audit-timeline-queries.ts";

/*
 * Auditors (CARD-4, DESIGN §5), all guarded by "audit.read" (Admin, Manager; the AUDIT
 * declarations in @etd/contract/endpoints):
 * - one order: its history with its mails', the order at a moment, the diff of two moments
 *   (audit-order-queries.ts);
 * - the whole log: a folder at a past moment, one member's activity (audit-log-queries.ts);
 * - the hash chains: the log's verification and the exports (audit-chain-routes.ts);
 * - the readable timelines of an order, a member and the gateways (audit-timeline-queries.ts).
 * All but the timelines read the event log itself, never a read model.
 */
export const auditHandlers = (deps: ApiDeps, exportSlots: MemberSlots) =>
  joinHandlers(auditOrderHandlers(deps), auditLogHandlers(deps), auditChainHandlers(deps, exportSlots), auditTimelineHandlers(deps));
