import type { MailContentAnswer } from "@etd/contract";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** Shown when the server has no content for the mail (not rendered yet, erased, or not offered). */
export const MAIL_CONTENT_UNAVAILABLE = "The content of this mail is not available.";

/**
 * View Email Content (ORDER-12): GET /admin/mail-content/{mailId}, the mail as it was rendered for
 * sending. Under "order_details": the mail's state moves with that read model, and its sending
 * time with it. Undefined when the server has none to show.
 */
export const mailContentQuery = (mailId: string) =>
  queryOptions({
    queryKey: [...queryKeys.order_details, "mail-content", mailId] as const,
    queryFn: async ({ signal }): Promise<MailContentAnswer | null> => {
      const answer = await apiRequest<MailContentAnswer | null>("GET", `/admin/mail-content/${encodeURIComponent(mailId)}`, { signal });
      return answer.status === 1 && answer.data ? answer.data : null;
    },
    staleTime: 60_000,
  });
