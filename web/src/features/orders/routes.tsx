import { createRoute } from "@tanstack/react-router";
import { ErrorView, NotFoundView } from "../../app/error-view.tsx";
import { adminRoute } from "../../app/routes.tsx";

/*
 * The order detail page's address (ORDER-*, 001 §2: /admin/view-order/{orderId}), which every
 * queue's View link opens. The page itself arrives with the order page issue; until then the
 * address is declared, so that links to it are checked like any other (app/routes.tsx), and it
 * shows what it showed before: that there is no page here yet, inside the admin shell.
 */
export const viewOrderRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "view-order/$orderId",
  component: NotFoundView,
  errorComponent: ErrorView,
});
