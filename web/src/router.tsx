import { createRouter } from "@tanstack/react-router";
import { adminNotFoundRoute, adminRoute, dashboardRoute, logoutRoute, rootRoute, signInRoute } from "./app/routes.tsx";
import { ErrorView } from "./app/error-view.tsx";
import { signOut } from "./app/sign-out.ts";
import { toast } from "./components/ui/toast.tsx";
import { adminScreenRoutes } from "./features/admin/routes.tsx";
import { auditRouteTree } from "./features/audit/routes.tsx";
import { viewOrderRoute } from "./features/orders/routes.tsx";
import { queueRoutes } from "./features/queues/routes.tsx";
import { twoFactorRoute } from "./features/two-factor/routes.tsx";
import { setTwoFactorGate } from "./lib/two-factor-gate.ts";
import { setTwoFactorRequiredHandler, setUnauthorizedHandler } from "./lib/api-client.ts";
import { queryClient } from "./lib/query-client.ts";

/*
 * The route tree (code-based, fully typed; see app/routes.tsx): `/` sign-in, `/logout`, and the
 * `/admin` layout with the dashboard, every feature's routes and a not-found page that keeps the
 * menu. Registering the router below gives every Link, navigate and redirect in the app the
 * tree's paths, params and search to check against.
 */

export const routeTree = rootRoute.addChildren([
  signInRoute,
  logoutRoute,
  adminRoute.addChildren([dashboardRoute, ...queueRoutes, ...adminScreenRoutes, viewOrderRoute, auditRouteTree, twoFactorRoute, adminNotFoundRoute]),
]);

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: "intent",
  // The query cache decides freshness; the router always asks it.
  defaultPreloadStaleTime: 0,
  // Every route has its own error boundary: a screen that fails keeps the shell around its message.
  defaultErrorComponent: ErrorView,
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}

// AUTH-7: a 401 anywhere shows the server's message, ends the session and returns to sign-in.
setUnauthorizedHandler((message) => {
  toast.error(message);
  void signOut({ alreadyEnded: true });
  void router.navigate({ to: "/" });
});

// Issue 16 part A: a role that must use two-factor sign-in, without it: only its setup page.
setTwoFactorRequiredHandler(() => {
  setTwoFactorGate(true);
  if (router.state.location.pathname !== "/admin/two-factor") void router.navigate({ to: "/admin/two-factor" });
});
