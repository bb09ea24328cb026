import type { Body, OrderIdsRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";
import { asSelectedField, type OrdersChanged } from "./bulk-answer.ts";
import type { SelectedOrder } from "@etd/contract";

/** QUEUE-11 Refunded it: PUT /admin/move-to-complete-refund {orderId: [...]}: Refund → Completed Refund. */
export const markOrdersRefunded = (orderIds: readonly string[], asSelected?: readonly SelectedOrder[]) =>
  apiRequest<OrdersChanged>("PUT", "/admin/move-to-complete-refund", {
    body: { ...({ orderId: orderIds } satisfies Body<typeof OrderIdsRequest>), ...asSelectedField(asSelected) },
  });
