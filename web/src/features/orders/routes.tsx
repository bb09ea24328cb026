import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { ErrorView } from "../../app/error-view.tsx";
import { loadsWith } from "../../app/lazy-screen.ts";
import { adminRoute } from "../../app/routes.tsx";
import { orderDetailsQuery } from "./utils/order-queries.ts";

/*
 * The order page's address (ORDER-*, 001 §2: /admin/view-order/{orderId}), which every queue's
 * View link opens. The page is its own chunk: the route module holds only the address, the
 * loader that starts the details query (so the first paint has the server's answer) and a small
 * component that hands the typed param to the lazily loaded page.
 */

const OrderPage = lazyRouteComponent(() => import("./components/order-page.tsx"), "OrderPage");

export const viewOrderRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "view-order/$orderId",
  // A refusal (not found, not allowed) is the page's to show, in place, not the route's error view.
  loader: ({ context, params }) => context.queryClient.ensureQueryData(orderDetailsQuery(params.orderId)).catch(() => undefined),
  errorComponent: ErrorView,
  component: loadsWith(function ViewOrderRouteScreen() {
    const { orderId } = viewOrderRoute.useParams();
    // A fresh page per order: forms, dialogs and the presence id never carry over to another order.
    return <OrderPage key={orderId} orderId={orderId} />;
  }, OrderPage),
});
