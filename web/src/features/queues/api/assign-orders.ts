import type { Body, AssignOrderRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";
import { asSelectedField, type OrdersChanged } from "./bulk-answer.ts";
import type { SelectedOrder } from "@etd/contract";

/**
 * QUEUE-9 Assign to me: PUT /admin/assign-order-status {orderId: [...], assignto}. The server
 * assigns to the signed-in member; a lost race answers 409 naming who won and when.
 */
export const assignOrders = (orderIds: readonly string[], assignto: string, asSelected?: readonly SelectedOrder[]) =>
  apiRequest<OrdersChanged>("PUT", "/admin/assign-order-status", {
    body: { ...({ orderId: orderIds, assignto } satisfies Body<typeof AssignOrderRequest>), ...asSelectedField(asSelected) },
  });
