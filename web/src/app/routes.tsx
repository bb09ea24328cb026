import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
import { twoFactorGateClosed } from "../lib/two-factor-gate.ts";
import { readStoredSession } from "../lib/session.ts";
import { ErrorView, NotFoundView } from "./error-view.tsx";
import { RootLayout } from "./root-layout.tsx";
import { signOut } from "./sign-out.ts";

/*
 * The app's own routes: `/` sign-in, `/logout`, and the `/admin` layout that every feature's
 * routes hang under (`getParentRoute: () => adminRoute`, see features/∗/routes.tsx). Every route
 * is created with its real parent, so the router's types know every path, its params and its
 * search, and a link to an address no route serves fails the typecheck (issue 10 item 7;
 * test/typed-routes.ts). Loaders read the query client from the typed router context.
 *
 * Screens are loaded with their route (lazyRouteComponent): the sign-in page does not download
 * the console, nor one screen the others (issue 10 item 8). Redirects use
 * `redirect({ …, throw: true })`: the router's own way to throw one, which keeps `throw` for Error
 * objects only.
 */

export interface RouterContext {
  readonly queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  errorComponent: ErrorView,
  notFoundComponent: NotFoundView,
});

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: () => {
    // Someone already signed in has nothing to do here.
    if (readStoredSession()) redirect({ to: "/admin", throw: true });
  },
  component: lazyRouteComponent(() => import("../features/auth/components/sign-in-page.tsx"), "SignInPage"),
  errorComponent: ErrorView,
});

export const logoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/logout",
  beforeLoad: async () => {
    await signOut();
    redirect({ to: "/", throw: true });
  },
});

/** The one page a member behind the two-factor gate may open. */
const TWO_FACTOR_PATH = "/admin/two-factor";

/**
 * The admin shell: only with a valid stored session (AUTH-4); otherwise back to sign-in. A member
 * who must set up two-factor sign-in first sees only its page (issue 16 part A).
 */
export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin",
  beforeLoad: ({ location }) => {
    const session = readStoredSession();
    if (!session) {
      void signOut();
      redirect({ to: "/", throw: true });
    }
    if (twoFactorGateClosed() && location.pathname !== TWO_FACTOR_PATH) redirect({ to: TWO_FACTOR_PATH, throw: true });
    return { session };
  },
  component: lazyRouteComponent(() => import("../features/shell/components/admin-layout.tsx"), "AdminLayout"),
  errorComponent: ErrorView,
});

export const dashboardRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/",
  component: lazyRouteComponent(() => import("../features/shell/components/dashboard.tsx"), "Dashboard"),
  errorComponent: ErrorView,
});

/** Unknown paths under /admin still need a session, and keep the menu around the message. */
export const adminNotFoundRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "$",
  component: NotFoundView,
  errorComponent: ErrorView,
});
