import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { ACCESS } from "@etd/contract/endpoints";
import { callApi, readYourWritesOf } from "./api-client.ts";
import { queryKeys } from "./query-keys.ts";
import { parseLiveChange } from "@etd/contract";
import { reconnectDelayMs } from "./reconnect-delay.ts";
import { APP_REFETCH_TIMING, refetchScheduler } from "./live-refetch.ts";

/*
 * Live updates (CARD-3): while a staff member is signed in, one EventSource on /api/live tells
 * this tab which read model moved and what in it changed, and the queries that show it refetch
 * (query keys start with the projection name, see lib/query-keys.ts; which ones, and how often:
 * live-refetch.ts).
 *
 * The stream is authenticated by the HttpOnly session cookie that sign-in set (ADR 0008), which
 * the browser sends by itself on this same-origin request: never a token in the URL. `token` only
 * tells which session is signed in, so that a new one opens a new stream.
 *
 * The browser reconnects by itself after a dropped connection (the server also ends the stream
 * when the session ends); when the server refuses the stream it stops, so we ask the API once (a
 * 401 signs out, which unmounts this hook) and otherwise try again with a growing delay. Anything
 * missed while disconnected is caught up by invalidating everything on reconnection. The stream is
 * closed while the page sits in the back/forward cache (an open one there holds one of the
 * browser's few connections per host) and opened again when the page is shown.
 *
 * Whether the stream is open shows on the root element (`data-live="open"`), for styles and for
 * browser tests, which wait for it instead of for time.
 */
export const useLiveUpdates = (token: string | undefined, viewerId: string): void => {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!token) return;
    const scheduler = refetchScheduler((isStale) => void queryClient.invalidateQueries({ predicate: (query) => isStale(query.queryKey) }), viewerId, APP_REFETCH_TIMING);
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;
    let connectedBefore = false;

    const open = () => {
      source = new EventSource("/api/live");
      source.addEventListener("hello", () => {
        attempt = 0;
        document.documentElement.dataset.live = "open";
        // A reconnection may have missed anything; the first connection may have missed what
        // changed between the screen's first fetch and the stream opening, which for the queues
        // and their counts (the screens that change most) and an open order page (where a stale
        // status would greet its reader) is refetched at once.
        if (connectedBefore) void queryClient.invalidateQueries();
        else for (const queryKey of [queryKeys.queue, queryKeys.order_details]) void queryClient.invalidateQueries({ queryKey });
        connectedBefore = true;
      });
      source.addEventListener("change", (event: MessageEvent<string>) => {
        const change = parseLiveChange(event.data);
        if (!change) return;
        // The read model has applied this position: this tab's queries of it need not wait for it.
        readYourWritesOf(queryClient).applied(change.projection, change.position);
        scheduler.add(change);
      });
      source.addEventListener("error", () => {
        delete document.documentElement.dataset.live;
        if (stopped || source?.readyState !== EventSource.CLOSED) return;
        // Refused, not dropped: find out whether the session still holds (a 401 signs out).
        attempt += 1;
        void callApi(ACCESS.userInfo, {}).then(() => {
          if (!stopped) retry = setTimeout(open, reconnectDelayMs(attempt));
        });
      });
    };

    const hide = () => {
      clearTimeout(retry);
      delete document.documentElement.dataset.live;
      source?.close();
      source = undefined;
    };
    const show = (event: PageTransitionEvent) => {
      if (event.persisted && !stopped && !source) open();
    };
    window.addEventListener("pagehide", hide);
    window.addEventListener("pageshow", show);
    open();
    return () => {
      stopped = true;
      scheduler.stop();
      window.removeEventListener("pagehide", hide);
      window.removeEventListener("pageshow", show);
      clearTimeout(retry);
      delete document.documentElement.dataset.live;
      source?.close();
    };
  }, [token, viewerId, queryClient]);
};
