import type { Body, OrderIdsRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";
import { asSelectedField, type OrdersChanged } from "./bulk-answer.ts";
import type { SelectedOrder } from "@etd/contract";

/** QUEUE-10 Move to Original Folder: PUT /admin/move-order-status {orderId: [...]}; assignment cleared, back to New or Priority. */
export const moveOrdersToOriginalFolder = (orderIds: readonly string[], asSelected?: readonly SelectedOrder[]) =>
  apiRequest<OrdersChanged>("PUT", "/admin/move-order-status", {
    body: { ...({ orderId: orderIds } satisfies Body<typeof OrderIdsRequest>), ...asSelectedField(asSelected) },
  });
