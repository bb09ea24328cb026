import type { OrderId } from "@etd/events";
import { parsePosition } from "@etd/event-store";
import { dueText } from "@etd/contract";
import { atCapacityMessage } from "@etd/contract/endpoints";
import type { Handlers } from "../http/endpoint.ts";
import { utcDay } from "../http/fields.ts";
import { fail, ok } from "../http/reply.ts";
import type { ApiDeps } from "../api-deps.ts";
import { runOrderCommand } from "../commands/run-command.ts";
import { claimNext, markClaimDone, releaseClaim, type ClaimedOrder } from "../commands/take-next-claims.ts";

/*
 * Take next (issue 27): the caller gets the most urgent unassigned order they may work, and the
 * reason it was that one. Which order, and that racing callers get different ones, is the claims'
 * job (commands/take-next-claims.ts); whether it may be assigned is the order decider's, through
 * the same AssignOrder as "Assign to me", with the reason kept in OrderAssigned.
 */

/** Orders one call tries when the decider refuses the claimed one (someone assigned it by hand meanwhile). */
const ATTEMPTS = 5;

const NOTHING_WAITING = "There is no unassigned order in New or Priority to take.";

/** "due in 35 min, the most urgent unassigned Priority order"; without a due time, the oldest one. */
export const takeNextReason = (order: ClaimedOrder, now: Date): string => {
  // The words: "the most urgent unassigned Priority order" (the mode's label says "Priority Processing").
  const mode = order.processingMode === "priority" ? "Priority" : "Standard";
  if (order.dueAt === null) return `the oldest unassigned ${mode} order`;
  const due = dueText({ due_at: order.dueAt, clock_state: "running", time_left_ms: null }, now.getTime());
  return `${due}, the most urgent unassigned ${mode} order`;
};

export const takeNextHandlers = (deps: ApiDeps) =>
  ({
    takeNextOrder: async (context) => {
      const { user } = context;
      const tried: string[] = [];
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const now = deps.now();
        const outcome = await claimNext(deps.readDb, user.id, utcDay(now), tried);
        if ("atCapacity" in outcome) return fail(409, atCapacityMessage(outcome.atCapacity.held, outcome.atCapacity.capacity));
        if ("none" in outcome) break;
        const order = outcome.claimed;
        const reason = takeNextReason(order, now);
        const ran = await runOrderCommand(deps, context, {
          type: "AssignOrder",
          orderId: order.orderId as OrderId,
          assignee: { id: user.id, name: user.name },
          now: now.toISOString(),
          reason,
        }).catch(async (error: unknown) => {
          await releaseClaim(deps.readDb, order.orderId, user.id);
          throw error;
        });
        if (ran.ok) {
          // AssignOrder always appends; were there no position, the claim would be left to expire, never freed for another.
          const position = ran.position === undefined ? undefined : parsePosition(ran.position);
          if (position !== undefined) await markClaimDone(deps.readDb, order.orderId, user.id, position);
          return ok(`Order ${order.orderId} is yours: ${reason}.`, { orderId: order.orderId, reason, position: ran.position ?? null });
        }
        // Assigned or moved by someone else since the queue showed it: free it, and take the next.
        await releaseClaim(deps.readDb, order.orderId, user.id);
        tried.push(order.orderId);
      }
      return ok(NOTHING_WAITING, { orderId: null, reason: null, position: null });
    },
  }) satisfies Partial<Handlers>;
