import type { OrderDetails } from "@etd/contract";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { queryRequest } from "../../../lib/read-your-writes.ts";

/**
 * The server's reason it cannot show the order (not found, not allowed, unreachable). Thrown, so
 * that a refetch that fails keeps the order the page already shows (the query keeps its data).
 */
export class OrderReadError extends Error {}

/** The key of one order's details: under "order_details", so the live feed refetches it when that read model moves. */
export const orderDetailsKey = (orderId: string) => [...queryKeys.order_details, "details", orderId] as const;

/** ORDER-1: GET /admin/get-orders-details/{orderId}, shared by the route loader and the page. */
export const orderDetailsQuery = (orderId: string) =>
  queryOptions({
    queryKey: orderDetailsKey(orderId),
    queryFn: async (context): Promise<OrderDetails> => {
      const answer = await apiRequest<OrderDetails | null>("GET", `/admin/get-orders-details/${encodeURIComponent(orderId)}`, queryRequest(context));
      if (answer.status !== 1 || !answer.data) throw new OrderReadError(answer.message);
      return answer.data;
    },
  });
