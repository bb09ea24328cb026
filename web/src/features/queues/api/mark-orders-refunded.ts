import type { Body, OrderIdsRequest } from "@etd/contract/requests";
import { apiRequest } from "../../../lib/api-client.ts";
import type { OrdersChanged } from "./bulk-answer.ts";

/** QUEUE-11 Refunded it: PUT /admin/move-to-complete-refund {orderId: [...]}: Refund → Completed Refund. */
export const markOrdersRefunded = (orderIds: readonly string[]) =>
  apiRequest<OrdersChanged>("PUT", "/admin/move-to-complete-refund", { body: { orderId: orderIds } satisfies Body<typeof OrderIdsRequest> });
