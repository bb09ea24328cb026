import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { ErrorView } from "../../app/error-view.tsx";
import { adminRoute } from "../../app/routes.tsx";
import { Loading } from "../../components/ui/loading.tsx";
import { twoFactorStatusQuery } from "./hooks/two-factor-status.ts";

/** "Two-factor sign-in" (issue 16 part A): every member's own page, the only one while the gate is closed (lib/two-factor-gate.ts). */
export const twoFactorRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "two-factor",
  loader: ({ context }) => context.queryClient.ensureQueryData(twoFactorStatusQuery()),
  pendingComponent: Loading,
  errorComponent: ErrorView,
  component: lazyRouteComponent(() => import("./components/two-factor-page.tsx"), "TwoFactorPage"),
});
