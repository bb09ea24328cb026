import type { OrderViewer } from "@etd/contract";
import { ORDER_PAGE, type BodyOf } from "@etd/contract/endpoints";
import { useEffect, useState } from "react";
import { callApi, urlOf } from "../../../lib/api-client.ts";
import { readStoredSession } from "../../../lib/session.ts";

const PRESENCE = ORDER_PAGE.sendOrderPresence;

const DEFAULT_HEARTBEAT_MS = 3000;

/** The page's own id: random per mount, as the contract's OrderPresenceRequest wants it. */
const newViewId = () => crypto.randomUUID().replace(/-/g, "");

/** The last word of a page that closes: sent with keepalive so it leaves even as the tab goes. */
const sayLeaving = (orderId: string, viewId: string) => {
  const session = readStoredSession();
  if (!session) return;
  // Not callApi: a fetch that outlives the page needs `keepalive`.
  void fetch(`/api${urlOf(PRESENCE, {})}`, {
    method: PRESENCE.method.toUpperCase(),
    keepalive: true,
    headers: { authorization: session.accessToken, "content-type": "application/json" },
    body: JSON.stringify({ orderId, viewId, leaving: true } satisfies BodyOf<typeof PRESENCE>),
  }).catch(() => undefined);
};

/**
 * Presence (issue 11): while the page is open it says so every heartbeat and learns who else has
 * the order open; closing the page (unmount, pagehide) says it is leaving, so colleagues' badges
 * drop it at once rather than after the server's timeout.
 */
export const usePresence = (orderId: string): readonly OrderViewer[] => {
  const [viewers, setViewers] = useState<readonly OrderViewer[]>([]);
  useEffect(() => {
    const viewId = newViewId();
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const beat = async () => {
      const answer = await callApi(PRESENCE, { body: { orderId, viewId } }).catch(() => undefined);
      if (stopped) {
        // The page closed while this beat was on its way: its "leaving" may have arrived first,
        // and this beat would then have put the view back. Say it again.
        sayLeaving(orderId, viewId);
        return;
      }
      const data = answer?.status === 1 ? answer.data : null;
      if (data) setViewers(data.viewers);
      timer = setTimeout(() => void beat(), data?.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
    };
    void beat();
    const onPageHide = () => sayLeaving(orderId, viewId);
    // Back from the bfcache: the page is open again, under the same id.
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted && !stopped) {
        clearTimeout(timer);
        void beat();
      }
    };
    window.addEventListener("pagehide", onPageHide);
    window.addEventListener("pageshow", onPageShow);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("pagehide", onPageHide);
      window.removeEventListener("pageshow", onPageShow);
      sayLeaving(orderId, viewId);
    };
  }, [orderId]);
  return viewers;
};
