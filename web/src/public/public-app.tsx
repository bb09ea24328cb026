import { BRANDS, TRACKER_LOOK, type LandingDomain, type Look } from "@etd/contract";
import { useCallback, useEffect, useState } from "react";
import { DownloadPage } from "./download-page.tsx";
import { PublicFrame } from "./public-frame.tsx";
import { routeOf, type Navigate, type Route } from "./public-routes.ts";
import { TrackPage } from "./track-page.tsx";

/*
 * The traveller's pages: the route from the address bar (public-routes.ts), history.pushState and
 * popstate for the back button.
 *
 * The look (PUBLIC-3) is the neutral tracker's until an order is proven, then the order's brand,
 * from its landing domain as the server reads it (never from the address typed).
 */

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
    </PublicFrame>
  );
};
