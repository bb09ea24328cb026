import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, createRoute, createRouter, redirect } from "@tanstack/react-router";
import { ErrorView, NotFoundView } from "./app/error-view.tsx";
import { RootLayout } from "./app/root-layout.tsx";
import { signOut } from "./app/sign-out.ts";
import { toast } from "./components/ui/toast.tsx";
import { SignInPage } from "./features/auth/components/sign-in-page.tsx";
import { adminScreenRoutes } from "./features/admin/routes.tsx";
import { queueRoutes } from "./features/queues/routes.tsx";
import { AdminLayout } from "./features/shell/components/admin-layout.tsx";
import { Dashboard } from "./features/shell/components/dashboard.tsx";
import { setUnauthorizedHandler } from "./lib/api-client.ts";
import { queryClient } from "./lib/query-client.ts";
import { readStoredSession } from "./lib/session.ts";

/*
 * The route tree (code-based): `/` sign-in, `/logout`, and the `/admin` layout whose children
 * come from the feature route factories. Loaders get the query client from the router context:
 * `loader: ({ context }) => context.queryClient.ensureQueryData(someQuery(...))`.
 * Redirects use `redirect({ …, throw: true })`: the router's own way to throw one, which keeps
 * `throw` for Error objects only.
 */

export interface RouterContext {
  readonly queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  errorComponent: ErrorView,
  notFoundComponent: NotFoundView,
});

const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    // Someone already signed in has nothing to do here.
    if (readStoredSession()) redirect({ to: "/admin", throw: true });
  },
  component: SignInPage,
});

const logoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/logout",
  beforeLoad: async () => {
    await signOut();
    redirect({ to: "/", throw: true });
  },
});

/** The admin shell: only with a valid stored session (AUTH-4); otherwise back to sign-in. */
export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin",
  beforeLoad: () => {
    const session = readStoredSession();
    if (!session) {
      void signOut();
      redirect({ to: "/", throw: true });
    }
    return { session };
  },
  component: AdminLayout,
});

const dashboardRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/",
  component: Dashboard,
});

/** Unknown paths under /admin still need a session, and keep the menu around the message. */
const adminNotFoundRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "$",
  component: NotFoundView,
});

const routeTree = rootRoute.addChildren([
  signInRoute,
  logoutRoute,
  adminRoute.addChildren([dashboardRoute, ...queueRoutes(adminRoute), ...adminScreenRoutes(adminRoute), adminNotFoundRoute]),
]);

export const router = createRouter({
  routeTree,
  context: { queryClient },
  defaultPreload: "intent",
  // The query cache decides freshness; the router always asks it.
  defaultPreloadStaleTime: 0,
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
