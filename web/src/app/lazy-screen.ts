import type { ReactNode } from "react";

/*
 * Screens whose code is fetched with their route (issue 10 item 8). A route whose component
 * needs the route's own typed search or params stays a small component in the route module and
 * renders its screen made with lazyRouteComponent; `loadsWith` tells the router to fetch the
 * screen's code together with the route's data (the router calls a route component's `preload`,
 * as it does for lazyRouteComponent), so the screen never waits for its code after its data.
 */

type Preloadable = { preload?: (() => Promise<void> | undefined) | undefined };

/** `component`, made to fetch the code of `screens` whenever the router loads its route. */
export const loadsWith = (component: () => ReactNode, ...screens: readonly Preloadable[]) =>
  Object.assign(component, {
    preload: async () => {
      await Promise.all(screens.map((screen) => screen.preload?.() ?? Promise.resolve()));
    },
  });
