import type { Body, ChangeOrderStatusRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";
import { asSelectedField, type OrdersChanged } from "./bulk-answer.ts";
import type { SelectedOrder } from "@etd/contract";

/**
 * QUEUE-8: the soft delete. PUT /admin/change-order-status {orderId: [...], updatingStatus:
 * 'Deleted', permanentDeletedFlag: false}; 'Order has been deleted successfully'.
 */
export const deleteOrders = (orderIds: readonly string[], asSelected?: readonly SelectedOrder[]) =>
  apiRequest<OrdersChanged>("PUT", "/admin/change-order-status", {
    body: { ...({ orderId: orderIds, updatingStatus: "Deleted", permanentDeletedFlag: false } satisfies Body<typeof ChangeOrderStatusRequest>), ...asSelectedField(asSelected) },
  });

