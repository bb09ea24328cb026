import { seededRandom } from "@etd/demo";
import { requestUuid } from "./request-id.ts";

/*
 * A reproducible burst of order commands for the crash test (R4): which endpoint, which order,
 * which request id. Each command touches one order, so its request id (the events'
 * correlationId) belongs to exactly one stream. The mix keeps orders moving in and out of
 * ChargeBack and Refund, so that many remarks append TWO events at once: those are the appends a
 * crash could tear in half.
 */

/** Status names as the events carry them, for the statuses the burst moves orders to. */
export type TargetStatus = "Awaiting" | "AwaitingGovt" | "ContactCustomer" | "CustomerCalled" | "Completed";

export type BurstCommand =
  | { readonly kind: "remark"; readonly flag: "none" | "chargeBack" | "statusRefund" }
  | { readonly kind: "assign" }
  | { readonly kind: "change-status"; readonly to: TargetStatus }
  | { readonly kind: "move-to-original" };

export interface PlannedRequest {
  readonly requestId: string;
  readonly orderId: string;
  readonly command: BurstCommand;
  readonly method: "POST" | "PUT";
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** The labels staff pick, which the API maps to status names (000 §4). */
const STATUS_LABELS: Record<TargetStatus, string> = {
  Awaiting: "Awaiting Response",
  AwaitingGovt: "Awaiting Govt",
  ContactCustomer: "Contact Customer",
  CustomerCalled: "Customer Called",
  Completed: "Completed",
};
const TARGETS = Object.keys(STATUS_LABELS) as TargetStatus[];

const pickCommand = (roll: number, random: () => number): BurstCommand => {
  if (roll < 0.35) return { kind: "remark", flag: "chargeBack" };
  if (roll < 0.45) return { kind: "remark", flag: "statusRefund" };
  if (roll < 0.55) return { kind: "remark", flag: "none" };
  if (roll < 0.7) return { kind: "assign" };
  if (roll < 0.9) return { kind: "change-status", to: TARGETS[Math.floor(random() * TARGETS.length)]! };
  return { kind: "move-to-original" };
};

const toRequest = (command: BurstCommand, orderId: string, requestId: string, index: number): PlannedRequest => {
  const base = { requestId, orderId, command };
  switch (command.kind) {
    case "remark":
      return {
        ...base,
        method: "POST",
        path: "/admin/add-new-remark",
        body: {
          orderId,
          remark: `Burst remark ${index}`,
          chargeBack: command.flag === "chargeBack" ? "Y" : "N",
          statusRefund: command.flag === "statusRefund" ? "Y" : "N",
        },
      };
    case "assign":
      return { ...base, method: "PUT", path: "/admin/assign-order-status", body: { orderId: [orderId], assignto: "x" } };
    case "change-status":
      return { ...base, method: "PUT", path: "/admin/change-order-status", body: { orderId: [orderId], updatingStatus: STATUS_LABELS[command.to] } };
    case "move-to-original":
      return { ...base, method: "PUT", path: "/admin/move-order-status", body: { orderId: [orderId] } };
  }
};

/** `count` requests on `orderIds`, each with a unique request id made from `<prefix>-<n>`. */
export const planBurst = ({ seed, count, orderIds, prefix }: { seed: number; count: number; orderIds: readonly string[]; prefix: string }): PlannedRequest[] => {
  const random = seededRandom(seed).next;
  return Array.from({ length: count }, (_, index) => {
    const orderId = orderIds[Math.floor(random() * orderIds.length)]!;
    return toRequest(pickCommand(random(), random), orderId, requestUuid(`${prefix}-${index}`), index);
  });
};
