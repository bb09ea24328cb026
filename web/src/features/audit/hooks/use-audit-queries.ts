import type { QueueKey } from "@etd/contract";
import { AUDIT } from "@etd/contract/endpoints";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { endpointQuery } from "../../../lib/endpoint-query.ts";

/*
 * The Audit area's reads (CARD-4, issue 14), Admin and Manager only. Their answers are folded
 * from the event log, which is always current, so they wait for no read model and no live change
 * refreshes them: the past does not move. A disabled query (nothing asked yet) still needs a call
 * to key it; it is never sent.
 */

export const useOrderHistory = (orderId: string) => useQuery(endpointQuery(AUDIT.getOrderAuditHistory, { params: { orderId } }));

/** The order at a moment: one moment's fold never changes, so sliding back and forth reuses it. */
export const useOrderAsOf = (orderId: string, at: string | undefined) =>
  useQuery({
    ...endpointQuery(AUDIT.getOrderAsOf, { params: { orderId }, query: { at: at ?? "" } }),
    enabled: at !== undefined,
    staleTime: Infinity,
    // While the next moment loads, the panel keeps the previous one instead of flashing empty.
    placeholderData: keepPreviousData,
  });

/** What changed between two moments: never changes either. */
export const useOrderDiff = (orderId: string, range: { from: string; to: string } | undefined) =>
  useQuery({
    ...endpointQuery(AUDIT.getOrderDiff, { params: { orderId }, query: { from: range?.from ?? "", to: range?.to ?? "" } }),
    enabled: range !== undefined,
    staleTime: Infinity,
  });

export interface QueueAtParams {
  readonly folder: QueueKey;
  readonly at: string;
  readonly page: number;
  readonly staffId?: string | undefined;
}

export const useQueueAt = (params: QueueAtParams | undefined) =>
  useQuery({
    ...endpointQuery(AUDIT.getFolderAsOf, {
      params: { folder: params?.folder ?? "" },
      query: { at: params?.at ?? "", page: String(params?.page ?? 1), staffId: params?.staffId },
    }),
    enabled: params !== undefined,
    placeholderData: keepPreviousData,
  });

export const useStaffActivity = (params: { staffId: string; from: string; to: string } | undefined) =>
  useQuery({
    ...endpointQuery(AUDIT.getStaffActivity, { params: { staffId: params?.staffId ?? "" }, query: { from: params?.from ?? "", to: params?.to ?? "" } }),
    enabled: params !== undefined,
  });

/** The log's verification walks every event: only when asked (the Verify button refetches), then kept for the visit. */
export const useLogVerification = () =>
  useQuery({
    ...endpointQuery(AUDIT.verifyLog, {}),
    enabled: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
