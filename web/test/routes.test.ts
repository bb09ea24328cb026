import "./support/memory-storage.ts";
import { describe, expect, it } from "vitest";
import { QUEUE_SCREENS } from "../src/features/queues/queue-screens.ts";
import { DASHBOARD_TILES, MENU_ENTRIES } from "../src/lib/menu-entries.ts";
import { router } from "../src/router.tsx";

/*
 * The route tree as the running app has it (issue 10 item 7; the types are checked by
 * test/typed-routes.test-d.tsx): every folder and menu entry is served, every route has its own
 * error view, and every screen's code is loaded with its route, not with the app (item 8).
 */
describe("the route tree", () => {
  const paths = Object.keys(router.routesByPath);
  const routes = Object.values(router.routesById).filter((route) => !route.isRoot);

  it("serves every queue screen at /admin/<its path>, and every menu entry and dashboard tile", () => {
    expect(QUEUE_SCREENS.map((screen) => `/admin/${screen.path}`).filter((path) => !paths.includes(path))).toEqual([]);
    expect([...MENU_ENTRIES, ...DASHBOARD_TILES].map((entry) => entry.to).filter((path) => !paths.includes(path))).toEqual([]);
  });

  it("gives every route with a screen its own error view, so a failing screen keeps the shell around its message", () => {
    const withoutErrorView = routes.filter((route) => route.options.component && !route.options.errorComponent).map((route) => route.id);
    expect(withoutErrorView).toEqual([]);
    expect(router.options.defaultErrorComponent).toBeDefined();
  });

  it("loads each screen's code with its route: every route component but the not-found views can be preloaded", () => {
    const eager = routes
      .filter((route) => route.options.component && typeof (route.options.component as { preload?: unknown }).preload !== "function")
      .map((route) => route.id);
    expect(eager.sort()).toEqual(["/admin/$"]);
  });
});
