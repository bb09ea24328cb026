/*
 * THE QUERY-KEY CONVENTION (every feature follows it; the live feed depends on it):
 *
 *   Every query key starts with the name of the read model (projection) the query reads:
 *     ["queue", …]          folder counts, queue lists, search, future months
 *     ["order_details", …]  the order detail view and its histories
 *     ["reports", …]        country orders, processed-by counts, processed orders
 *     ["staff", …]          staff member list, info, types
 *     ["gateways", …]       payment gateways
 *
 * When the server says a read model moved (SSE `change` with `{projection}`), the live hook
 * refetches the queries whose key starts with that name and that show what the change says changed
 * (live-refetch.ts, issue 28): a queue list's key is `["queue", "list" | "search", queueKey, …]`,
 * and an order_details key that can go stale names its order id (a sent mail's content, keyed by
 * its mail id, never changes), so that a change to one folder or one order refetches only the
 * screens showing it. After a command, invalidate by name:
 * `queryClient.invalidateQueries({ queryKey: queryKeys.queue })`. Below that, keys are each
 * feature's own business.
 */

import { READ_MODELS, type ReadModel } from "@etd/contract";

/** The read models by name: the contract's, as the live feed and `X-Read-After` name them. */
export const PROJECTIONS = READ_MODELS;

export type Projection = ReadModel;

/** The first element of every query key, by read model. */
export const queryKeys = {
  queue: ["queue"],
  order_details: ["order_details"],
  reports: ["reports"],
  staff: ["staff"],
  gateways: ["gateways"],
  dashboard: ["dashboard"],
} as const satisfies Record<Projection, readonly [Projection]>;

export const isProjection = (name: unknown): name is Projection => (PROJECTIONS as readonly unknown[]).includes(name);
