import type { Query } from "@etd/event-store";
import { CLOSED_STATUSES } from "../queue/queue-folders.ts";
import { QUEUE_TABLES } from "../queue/queue-projection.ts";

/*
 * A member's open orders (issue 27): the orders assigned to them in any status but the closed ones
 * (Completed, Completed Refund, Deleted), from the queue read model's counts per assignee and
 * status, a few rows per member. Manage Team shows the number against the member's capacity, and
 * Take next refuses at it.
 */

const OPEN = `process_status not in (${CLOSED_STATUSES.map((status) => `'${status}'`).join(", ")})`;

/**
 * The member's open orders as a scalar subquery on the member id in `parameter` ("$1"), for a
 * statement that must read them in the same snapshot as something else (Take next's capacity).
 */
export const openOrdersSql = (parameter: string): string =>
  `(select coalesce(sum(n), 0) from ${QUEUE_TABLES.assigneeCounts} where assignee_id = ${parameter} and ${OPEN})`;

/** How many open orders the member holds now. */
export const openOrdersOf = async (query: Query, staffId: string): Promise<number> => {
  const [row] = await query(`select ${openOrdersSql("$1")}::int as n`, [staffId]);
  return Number(row?.n ?? 0);
};

/** Every member's open orders, by staff id; a member with none is absent. */
export const openOrdersByMember = async (query: Query): Promise<ReadonlyMap<string, number>> => {
  const rows = await query(`select assignee_id, sum(n)::int as n from ${QUEUE_TABLES.assigneeCounts} where ${OPEN} group by assignee_id`);
  return new Map(rows.map((row) => [String(row.assignee_id), Number(row.n)]));
};
