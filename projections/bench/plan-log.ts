import * as Result from "effect/Result";
import { decodePlaceOrderRequest } from "@etd/write";
import { generateDemoOrders } from "@etd/demo";
import { planOrderLife } from "./order-life.ts";
import { mixSeed, seeded } from "./seeded.ts";
import { createRoster, type StreamWork } from "./staff-roster.ts";
import type { Budget } from "./stream-draft.ts";

/*
 * The workload's log as a sequence of stream appends, planned lazily so that a million events
 * never sit in memory at once. Pure but for the clock-free demo generator: the same options give
 * the same streams, events and event ids.
 */

export interface PlanOptions {
  /** Exactly this many events are planned. */
  readonly events: number;
  readonly seed: number;
  /** The log's "today": orders are created in the 90 days before it (default 2025-06-15T12:00:00Z). */
  readonly now?: Date;
  /** Number of the first order (default 100001): a second log into the same store needs its own range. */
  readonly firstOrderId?: number;
  /** Plans the staff and gateway streams (default true); turn off for a second log into a store that has them. */
  readonly teamAndGateways?: boolean;
}

export interface PlannedWork extends StreamWork {
  /** Staff and gateway streams open the log and are written before any order. */
  readonly setup: boolean;
  readonly order: boolean;
}

const DEFAULT_NOW = new Date("2025-06-15T12:00:00.000Z");
const CHUNK = 500;

export function* planLog(options: PlanOptions): Generator<PlannedWork> {
  if (!Number.isInteger(options.events) || options.events < 0) throw new RangeError(`events must be a whole number of 0 or more, got ${String(options.events)}`);
  const budget: Budget = { remaining: options.events };
  const now = options.now ?? DEFAULT_NOW;
  const firstOrderId = options.firstOrderId ?? 100_001;
  const random = seeded(mixSeed(options.seed, firstOrderId));
  const roster = createRoster(random, budget);
  const team = options.teamAndGateways ?? true;
  if (team) for (const work of roster.setup(new Date(now.getTime() - 120 * 86_400_000).toISOString())) yield { ...work, setup: true, order: false };

  let untilChange = random.int(400, 1500);
  for (let chunk = 0; budget.remaining > 0; chunk++) {
    const bodies = generateDemoOrders({ seed: mixSeed(options.seed, firstOrderId, chunk), count: CHUNK, now });
    for (const [i, body] of bodies.entries()) {
      if (budget.remaining <= 0) return;
      // The demo generator numbers every batch from 100001; the log needs one number per order.
      const orderId = String(firstOrderId + chunk * CHUNK + i);
      const decoded = decodePlaceOrderRequest({ ...body, order_id: orderId, ...(body.applicant_photo === undefined ? {} : { applicant_photo: `photos/${orderId}.jpg` }) });
      if (Result.isFailure(decoded)) throw new Error(`workload bug: demo order ${orderId} does not decode: ${decoded.failure.message}`);
      yield { ...planOrderLife(decoded.success, now, roster, random, budget), setup: false, order: true };
      if (team && --untilChange === 0) {
        for (const work of roster.change(decoded.success.createdAt)) yield { ...work, setup: false, order: false };
        untilChange = random.int(400, 1500);
      }
    }
  }
}
