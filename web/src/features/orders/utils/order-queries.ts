import type { MailContentAnswer, OrderDetails } from "@etd/contract";
import { ORDER_PAGE } from "@etd/contract/endpoints";
import { queryOptions } from "@tanstack/react-query";
import { callApi } from "../../../lib/api-client.ts";
import { endpointQuery } from "../../../lib/endpoint-query.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/**
 * The server's reason it cannot show the order (not found, not allowed, unreachable). Thrown, so
 * that a refetch that fails keeps the order the page already shows (the query keeps its data).
 */
export class OrderReadError extends Error {}

/**
 * ORDER-1: one order's details, shared by the route loader and the page. Keyed and sent as its
 * declaration says (under "order_details", waiting for this tab's writes to it); a refusal is
 * thrown rather than kept as the query's data.
 */
export const orderDetailsQuery = (orderId: string) => {
  const query = endpointQuery(ORDER_PAGE.getOrderDetails, { params: { orderId } });
  return queryOptions({
    queryKey: query.queryKey,
    queryFn: async (context): Promise<OrderDetails> => {
      // endpointQuery always gives one; its options' type only allows for none.
      const answer = await query.queryFn!(context);
      if (answer.status !== 1 || !answer.data) throw new OrderReadError(answer.message);
      return answer.data;
    },
  });
};

/** Shown when the server has no content for the mail (not rendered yet, erased, or not offered). */
export const MAIL_CONTENT_UNAVAILABLE = "The content of this mail is not available.";

/**
 * View Email Content (ORDER-12): the mail as it was rendered for sending. Read from the log, so
 * the server waits for no read model; kept under "order_details" all the same, because the mail's
 * state moves with that read model, and its sending time with it. Null when the server has none
 * to show.
 */
export const mailContentQuery = (mailId: string) =>
  queryOptions({
    queryKey: [...queryKeys.order_details, "mail-content", mailId] as const,
    queryFn: async ({ signal }): Promise<MailContentAnswer | null> => {
      const answer = await callApi(ORDER_PAGE.getMailContent, { params: { mailId } }, { signal });
      return answer.status === 1 && answer.data ? answer.data : null;
    },
    staleTime: 60_000,
  });
