import type { OrderEvent } from "../catalogue.ts";
import type { IntakeStatus, OrderStatus, ProcessingMode } from "./order-status.ts";

/** The status an unassigned order waits in: New for standard processing, Priority for priority. */
export const intakeStatusOf = (mode: ProcessingMode): IntakeStatus => (mode === "priority" ? "Priority" : "New");

/**
 * The status an order is in after this event, or undefined when the event leaves the status as
 * it was. The one place that knows, for instance, that an assignment makes an order Pending and a
 * refund paid back makes it Completed Refund: every fold (the decider's state, the queues, the
 * order details, the reports, the audit lines) asks here instead of repeating it.
 */
export const statusAfter = (event: OrderEvent): OrderStatus | undefined => {
  switch (event.type) {
    case "OrderPlaced":
      return intakeStatusOf(event.data.processingMode);
    case "OrderAssigned":
      return "Pending";
    case "OrderStatusChanged":
    case "OrderMovedToOriginalFolder":
      return event.data.to;
    case "OrderRefundRequested":
      return "Refund";
    case "OrderRefunded":
      return "CompletedRefund";
    case "OrderChargebackMarked":
      return "ChargeBack";
    case "OrderPermanentlyDeleted":
      return "Deleted";
    default:
      return undefined;
  }
};
