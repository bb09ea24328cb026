import type { AuditEvent, ChainVerification, OrderAsOf, OrderDiff, QueueAtMoment, QueueKey, StaffActivity } from "@etd/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { apiRequest, type Envelope } from "../../../lib/api-client.ts";
import { readStoredSession } from "../../../lib/session.ts";

/*
 * The audit endpoints (CARD-4, contract/src/audit.ts), Admin and Manager only. Their answers are
 * folded from the event log, not from a read model, so their keys start with "audit", which no
 * live change invalidates: the past does not move. An order's history does grow, so it and the
 * queue at a moment keep the app's short stale time; the log's verification walks every event
 * and is asked on a button press only, then kept for the visit.
 */

const AUDIT = ["audit"] as const;

const path = (...segments: readonly string[]) => segments.map(encodeURIComponent).join("/");

const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : "";
};

export const orderHistoryQuery = (orderId: string) =>
  queryOptions({
    queryKey: [...AUDIT, "order", orderId, "history"],
    queryFn: ({ signal }) => apiRequest<readonly AuditEvent[] | null>("GET", `/audit/orders/${path(orderId)}/history`, { signal }),
  });

export const orderAsOfQuery = (orderId: string, at: string | undefined) =>
  queryOptions({
    queryKey: [...AUDIT, "order", orderId, "as-of", at],
    enabled: at !== undefined,
    // One moment's fold never changes; sliding back and forth reuses it.
    staleTime: Infinity,
    // While the next moment loads, the panel keeps the previous one instead of flashing empty.
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => apiRequest<OrderAsOf | null>("GET", `/audit/orders/${path(orderId)}/as-of${query({ at })}`, { signal }),
  });

export const orderDiffQuery = (orderId: string, range: { from: string; to: string } | undefined) =>
  queryOptions({
    queryKey: [...AUDIT, "order", orderId, "diff", range?.from, range?.to],
    enabled: range !== undefined,
    staleTime: Infinity,
    queryFn: ({ signal }) => apiRequest<OrderDiff | null>("GET", `/audit/orders/${path(orderId)}/diff${query({ from: range?.from, to: range?.to })}`, { signal }),
  });

export interface QueueAtParams {
  readonly folder: QueueKey;
  readonly at: string;
  readonly page: number;
  readonly staffId?: string | undefined;
}

export const queueAtQuery = (params: QueueAtParams | undefined) =>
  queryOptions({
    queryKey: [...AUDIT, "queue", params?.folder, params?.at, params?.page, params?.staffId],
    enabled: params !== undefined,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      apiRequest<QueueAtMoment | null>(
        "GET",
        `/audit/queues/${path(params!.folder)}${query({ at: params!.at, page: params!.page, staffId: params!.staffId })}`,
        { signal },
      ),
  });

export const staffActivityQuery = (params: { staffId: string; from: string; to: string } | undefined) =>
  queryOptions({
    queryKey: [...AUDIT, "staff", params?.staffId, params?.from, params?.to],
    enabled: params !== undefined,
    queryFn: ({ signal }) =>
      apiRequest<StaffActivity | null>("GET", `/audit/staff/${path(params!.staffId)}/activity${query({ from: params!.from, to: params!.to })}`, { signal }),
  });

export const verifyQueryKey = [...AUDIT, "verify"] as const;

/** The log's verification: only when asked (`enabled` false; the Verify button refetches), then kept. */
export const verifyQuery = () =>
  queryOptions({
    queryKey: verifyQueryKey,
    enabled: false,
    staleTime: Infinity,
    gcTime: Infinity,
    queryFn: ({ signal }) => apiRequest<ChainVerification | null>("GET", "/audit/verify", { signal }),
  });

/** The answer's data when the server said yes, else undefined. */
export const dataOf = <T,>(answer: Envelope<T | null> | undefined): T | undefined => (answer?.status === 1 && answer.data !== null ? answer.data : undefined);

// --- exports (JSON lines files) ---------------------------------------------------------------------

export const orderExportPath = (orderId: string) => `/audit/orders/${path(orderId)}/export`;

export const logExportPath = (from: string, to: string) => `/audit/log/export${query({ from, to })}`;

export interface Downloaded {
  readonly fileName: string;
  readonly lines: number;
}

const fileNameOf = (disposition: string | null, fallback: string): string => {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? "");
  return match?.[1] ? decodeURIComponent(match[1]) : fallback;
};

/**
 * An export is a file, not an envelope, and the API takes the session only from the
 * Authorization header, which a plain link cannot send: the file is fetched with it and handed
 * to the browser as a download. A refusal comes back as the envelope's message.
 */
export const downloadExport = async (apiPath: string, fallbackName: string): Promise<Downloaded | { readonly refused: string }> => {
  const session = readStoredSession();
  let response: Response;
  try {
    response = await fetch(`/api${apiPath}`, { headers: session ? { authorization: session.accessToken } : {} });
  } catch {
    return { refused: "The server could not be reached. Please check your connection." };
  }
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok || type.includes("application/json")) {
    const body = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined;
    return { refused: typeof body?.message === "string" ? body.message : `The server answered ${response.status}.` };
  }
  const text = await response.text();
  const fileName = fileNameOf(response.headers.get("content-disposition"), fallbackName);
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the bytes by then.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { fileName, lines: text.split("\n").filter((line) => line.trim() !== "").length };
};
