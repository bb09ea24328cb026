import * as Result from "effect/Result";
import { orderStream, staffStream, type AnyEvent, type EventMetadata, type OrderId, type Role, type StaffId, type StaffRef } from "@etd/events";
import {
  decodePlaceOrderRequest,
  isRefusal,
  orderDecider,
  staffDecider,
  type OrderCommand,
  type OrderState,
  type StaffCommand,
  type StaffState,
} from "@etd/write";
import { generateDemoOrders } from "@etd/demo";
import { toLog } from "../support/projection-harness.ts";
import type { ProjectedEvent } from "../../src/engine/projection.ts";

/*
 * Order histories for the reports' tests, made by the real deciders at chosen moments: the
 * reports group by the days things happened on, so each command names its time. Intake bodies
 * are demo orders with the fields a test cares about overridden, decoded as real intake does.
 */

export const admin = { id: "admin-1" as StaffId, name: "Ana Admin", role: "Admin" as Role };
export const staffRef = (id: string, name: string): StaffRef => ({ id: id as StaffId, name });

const [demo] = generateDemoOrders({ seed: 7, count: 1, now: new Date("2025-03-01T00:00:00Z") });

export interface OrderSpec {
  readonly orderId: string;
  readonly createdAt: string;
  readonly mode?: "standard" | "priority";
  /** Defaults to the day it was created. */
  readonly processingDate?: string;
  readonly citizenshipId?: string | undefined;
  readonly citizenship?: string | undefined;
}

export interface Timeline {
  place(spec: OrderSpec): void;
  /** Runs an order command at `at` (ISO); a refusal fails the test. */
  order(command: OrderCommand, at: string): void;
  /** Like `order`, but a refusal only returns false: for generated histories. */
  attempt(command: OrderCommand, at: string): boolean;
  staff(command: StaffCommand, at: string): void;
  readonly log: () => ProjectedEvent[];
  /** Each order as the write side sees it now: what the reports must agree with. */
  readonly orders: () => ReadonlyMap<string, OrderState>;
}

export const timeline = (): Timeline => {
  const orders = new Map<string, OrderState>();
  const staffMembers = new Map<string, StaffState>();
  const entries: { event: AnyEvent; streamId: string; at: string }[] = [];
  const metadata = (at: string): EventMetadata => ({
    actor: { kind: "staff", ...admin },
    correlationId: `test-${entries.length}`,
    occurredAt: at as EventMetadata["occurredAt"],
  });

  const attempt = (command: OrderCommand, at: string): boolean => {
    const state = orders.get(command.orderId) ?? orderDecider.initialState;
    const decision = orderDecider.decide(command, state);
    if (isRefusal(decision)) return false;
    let next = state;
    for (const event of decision) {
      const full = { ...event, metadata: metadata(at) } as AnyEvent;
      next = orderDecider.evolve(next, full as Parameters<typeof orderDecider.evolve>[1]);
      entries.push({ event: full, streamId: orderStream(command.orderId), at });
    }
    orders.set(command.orderId, next);
    return true;
  };
  const runOrder = (command: OrderCommand, at: string) => {
    if (!attempt(command, at)) throw new Error(`${command.type} refused for order ${command.orderId}`);
  };

  return {
    place: (spec) => {
      const body: Record<string, unknown> = {
        ...demo!,
        order_id: spec.orderId,
        processing_mode: spec.mode ?? "standard",
        created_at: spec.createdAt,
        processing_date: spec.processingDate ?? spec.createdAt.slice(0, 10),
        citizenship_id: spec.citizenshipId,
        citizenship: spec.citizenship,
        citizenshipCountry: spec.citizenship,
      };
      // A key the site leaves out is absent, not undefined.
      for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
      const input = decodePlaceOrderRequest(body);
      if (Result.isFailure(input)) throw new Error(`demo order did not decode: ${input.failure.message}`);
      runOrder({ type: "PlaceOrder", ...input.success }, spec.createdAt);
    },
    order: runOrder,
    attempt,
    staff: (command, at) => {
      const state = staffMembers.get(command.staffId) ?? staffDecider.initialState;
      const decision = staffDecider.decide(command, state);
      if (isRefusal(decision)) throw new Error(`${command.type} refused: ${decision.message}`);
      let next = state;
      for (const event of decision) {
        const full = { ...event, metadata: metadata(at) } as AnyEvent;
        next = staffDecider.evolve(next, full as Parameters<typeof staffDecider.evolve>[1]);
        entries.push({ event: full, streamId: staffStream(command.staffId), at });
      }
      staffMembers.set(command.staffId, next);
    },
    orders: () => orders,
    log: () =>
      toLog(entries.map(({ event, streamId }) => ({ event, streamId, metadata: event.metadata }))).map((entry, i) => {
        const at = entries[i]!.at;
        return { ...entry, event: { ...entry.event, metadata: { ...entry.event.metadata, occurredAt: at } } as AnyEvent, recordedAt: new Date(at) };
      }),
  };
};

/**
 * Upload Document (ORDER-3) by `by` at `at`. The reports' orders are never assigned, so QUEUE-12's
 * read-only rule does not apply and a Team role will do.
 */
export const upload = (orderId: string, by: StaffRef): OrderCommand => ({
  type: "UploadDocument",
  orderId: orderId as OrderId,
  fileName: "etravel.pdf",
  storedPath: `docs/${orderId}/etravel.pdf`,
  contentType: "application/pdf",
  sizeBytes: 1234,
  actor: { ...by, role: "Team" },
  provider: "AWS",
  to: "traveller@example.com",
});

export const softDelete = (orderId: string): OrderCommand => ({
  type: "ChangeStatus",
  orderId: orderId as OrderId,
  to: "Deleted",
  actor: admin,
  permanentDelete: false,
});

export const moveTo = (orderId: string, to: "Completed" | "Awaiting" | "Deleted"): OrderCommand => ({
  type: "ChangeStatus",
  orderId: orderId as OrderId,
  to,
  actor: admin,
  permanentDelete: false,
});

export const permanentlyDelete = (orderId: string): OrderCommand => ({
  type: "ChangeStatus",
  orderId: orderId as OrderId,
  to: "Deleted",
  actor: admin,
  permanentDelete: true,
});
