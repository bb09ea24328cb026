import { createRoute, lazyRouteComponent, useNavigate } from "@tanstack/react-router";
import { ErrorView } from "../../app/error-view.tsx";
import { loadsWith } from "../../app/lazy-screen.ts";
import { adminRoute } from "../../app/routes.tsx";
import { validateQueueAtSearch, validateRangeSearch, type QueueAtSearch, type RangeSearch } from "./audit-search.ts";

/*
 * The Audit area (CARD-4, issue 14) under /admin/audit: a layout that admits Admin and Manager
 * ("audit.read", the permission table's) and shows everyone else the no-access view, with the
 * log's verify badge above its three screens: order replay, a queue at a moment, staff activity.
 * Queue and staff screens keep what they show in the URL, so an auditor's finding can be shared
 * as a link. Every screen's code is fetched with its route.
 */

const OrderReplayScreen = lazyRouteComponent(() => import("./components/order-replay-screen.tsx"), "OrderReplayScreen");
const QueueAtScreen = lazyRouteComponent(() => import("./components/queue-at-screen.tsx"), "QueueAtScreen");
const StaffActivityScreen = lazyRouteComponent(() => import("./components/staff-activity-screen.tsx"), "StaffActivityScreen");

export const auditRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "audit",
  errorComponent: ErrorView,
  component: lazyRouteComponent(() => import("./components/audit-layout.tsx"), "AuditLayout"),
});

export const auditHomeRoute = createRoute({
  getParentRoute: () => auditRoute,
  path: "/",
  errorComponent: ErrorView,
  component: lazyRouteComponent(() => import("./components/audit-home.tsx"), "AuditHome"),
});

export const auditOrderRoute = createRoute({
  getParentRoute: () => auditRoute,
  path: "orders/$orderId",
  errorComponent: ErrorView,
  component: loadsWith(function AuditOrderRoute() {
    const { orderId } = auditOrderRoute.useParams();
    // A fresh screen per order: the slider and the compared moments never carry over.
    return <OrderReplayScreen key={orderId} orderId={orderId} />;
  }, OrderReplayScreen),
});

export const auditQueueRoute = createRoute({
  getParentRoute: () => auditRoute,
  path: "queues",
  validateSearch: (raw: Record<string, unknown> & QueueAtSearch): QueueAtSearch => validateQueueAtSearch(raw),
  errorComponent: ErrorView,
  component: loadsWith(function AuditQueueRoute() {
    const search = auditQueueRoute.useSearch();
    const navigate = useNavigate();
    return <QueueAtScreen search={search} onSearch={(next) => void navigate({ to: "/admin/audit/queues", search: next })} />;
  }, QueueAtScreen),
});

export const auditStaffRoute = createRoute({
  getParentRoute: () => auditRoute,
  path: "staff",
  validateSearch: (raw: Record<string, unknown> & RangeSearch): RangeSearch => validateRangeSearch(raw),
  errorComponent: ErrorView,
  component: loadsWith(function AuditStaffRoute() {
    const search = auditStaffRoute.useSearch();
    const navigate = useNavigate();
    return <StaffActivityScreen search={search} onSearch={(next) => void navigate({ to: "/admin/audit/staff", search: next })} />;
  }, StaffActivityScreen),
});

export const auditRouteTree = auditRoute.addChildren([auditHomeRoute, auditOrderRoute, auditQueueRoute, auditStaffRoute]);
