import type { Body, OrderIdsRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";
import type { OrdersChanged } from "./bulk-answer.ts";

/** QUEUE-10 Move to Original Folder: PUT /admin/move-order-status {orderId: [...]}; assignment cleared, back to New or Priority. */
export const moveOrdersToOriginalFolder = (orderIds: readonly string[]) =>
  apiRequest<OrdersChanged>("PUT", "/admin/move-order-status", { body: { orderId: orderIds } satisfies Body<typeof OrderIdsRequest> });
