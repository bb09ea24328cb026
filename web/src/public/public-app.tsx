import { BRANDS, TRACKER_LOOK, type LandingDomain } from "@etd/contract";
import { useCallback, useEffect, useState } from "react";
import { Toaster } from "../components/ui/toast.tsx";
import { DownloadPage } from "./download-page.tsx";
import { PublicFrame, type Look } from "./public-frame.tsx";
import { TrackPage } from "./track-page.tsx";

/*
 * The two public routes, read from the address bar (001 §2): /track-order/{orderId} and
 * /get-new-order-details/{orderId}. Two pages do not need a router library; history.pushState
 * and popstate keep the back button working.
 *
 * The look (PUBLIC-3) is the neutral tracker's until an order is proven, then the order's brand,
 * from its landing domain as the server reads it (never from the address typed).
 */

export type Route = { readonly page: "track" | "download"; readonly orderId: string } | { readonly page: "missing" };

export type Navigate = (path: string, options?: { readonly replace?: boolean }) => void;

const ROUTE = /^\/(track-order|get-new-order-details)(?:\/([^/]*))?\/?$/;

const decoded = (part: string | undefined) => {
  try {
    return decodeURIComponent(part ?? "");
  } catch {
    return "";
  }
};

export const routeOf = (pathname: string): Route => {
  const match = ROUTE.exec(pathname);
  if (!match) return { page: "missing" };
  const orderId = decoded(match[2]).trim();
  if (match[1] === "track-order") return { page: "track", orderId };
  return orderId === "" ? { page: "missing" } : { page: "download", orderId };
};

export const trackPath = (orderId: string) => `/track-order/${encodeURIComponent(orderId)}`;
export const downloadPath = (orderId: string) => `/get-new-order-details/${encodeURIComponent(orderId)}`;

export const PublicApp = () => {
  const [route, setRoute] = useState<Route>(() => routeOf(window.location.pathname));
  const [brand, setBrand] = useState<LandingDomain | undefined>(undefined);

  useEffect(() => {
    const follow = () => setRoute(routeOf(window.location.pathname));
    window.addEventListener("popstate", follow);
    return () => window.removeEventListener("popstate", follow);
  }, []);

  const navigate = useCallback<Navigate>((path, options) => {
    if (options?.replace) window.history.replaceState(null, "", path);
    else window.history.pushState(null, "", path);
    setRoute(routeOf(path));
    window.scrollTo(0, 0);
  }, []);

  // Only the download page knows the order; leaving it returns to the neutral look.
  const look: Look = route.page === "download" && brand !== undefined ? BRANDS[brand] : TRACKER_LOOK;

  return (
    <PublicFrame look={look} onTrackPage={route.page === "track"}>
      {route.page === "track" && <TrackPage key={route.orderId} routeOrderId={route.orderId} navigate={navigate} />}
      {route.page === "download" && <DownloadPage key={route.orderId} orderId={route.orderId} navigate={navigate} onBrand={setBrand} />}
      {route.page === "missing" && (
        <section className="public-card">
          <h1>Page not found</h1>
          <p>
            To find your order, open the link in the e-mail we sent you, or <a href="/track-order">track it with its Order ID and e-mail</a>.
          </p>
        </section>
      )}
      <Toaster />
    </PublicFrame>
  );
};
