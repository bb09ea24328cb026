import type { ApiDeps } from "../api-deps.ts";
import type { Endpoint } from "../http/endpoint.ts";
import { auditChainEndpoints } from "./audit-chain-routes.ts";
import { auditLogEndpoints } from "./audit-log-queries.ts";
import { auditOrderEndpoints } from "./audit-order-queries.ts";

/*
 * Auditors (CARD-4, DESIGN §5), all guarded by "audit.read" (Admin, Manager) and all read from
 * the event log, never a read model:
 * - one order: its history with its mails', the order at a moment, the diff of two moments
 *   (audit-order-queries.ts);
 * - the whole log: a folder at a past moment, one member's activity (audit-log-queries.ts);
 * - the hash chains: the log's verification and the exports (audit-chain-routes.ts).
 */
export const auditQueryEndpoints = (deps: ApiDeps): Endpoint[] => [...auditOrderEndpoints(deps), ...auditLogEndpoints(deps), ...auditChainEndpoints(deps)];
