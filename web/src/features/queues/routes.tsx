import { createRoute, lazyRouteComponent, stripSearchParams, useNavigate } from "@tanstack/react-router";
import { ErrorView } from "../../app/error-view.tsx";
import { loadsWith } from "../../app/lazy-screen.ts";
import { adminRoute } from "../../app/routes.tsx";
import { readStoredSession } from "../../lib/session.ts";
import { futureMonthsQuery, processedOrdersQuery, queuePageQuery } from "./utils/queue-queries.ts";
import {
  DEFAULT_PAGE_SIZE,
  validateFutureSearch,
  validateQueueSearch,
  type FutureSearch,
  type FutureSearchInput,
  type QueueSearch,
  type QueueSearchInput,
} from "./queue-search.ts";
import { QUEUE_SCREENS, type QueueScreen } from "./queue-screens.ts";

/*
 * The queue screens under /admin (QUEUE-1..14, ADMIN-3, ADMIN-7). Page, rows per page and search
 * are URL search params, validated (a bad value falls back to its default) and left out of the
 * URL when they are the defaults. Each loader starts the screen's query so the first paint has
 * the server's answer; the screen then keeps it fresh (live feed, Refresh, after commands).
 *
 * Each folder's route is declared with its literal path, so links to it are checked (see
 * app/routes.tsx); the screen it shows is the one QUEUE_SCREENS lists at that path.
 */

const DEFAULTS: QueueSearch = { page: 1, size: DEFAULT_PAGE_SIZE, search: "" };

const viewerName = () => readStoredSession()?.name ?? "";

const QueueScreenView = lazyRouteComponent(() => import("./components/queue-screen.tsx"), "QueueScreenView");
const FutureOrdersScreen = lazyRouteComponent(() => import("./components/future-orders-screen.tsx"), "FutureOrdersScreen");
const ProcessedOrdersScreen = lazyRouteComponent(() => import("./components/processed-orders-screen.tsx"), "ProcessedOrdersScreen");

/** The folder QUEUE_SCREENS shows at `path`; a route without one is a mistake caught at start. */
const screenAt = (path: string): QueueScreen => {
  const screen = QUEUE_SCREENS.find((candidate) => candidate.path === path);
  if (!screen) throw new Error(`no queue screen is listed at ${path}`);
  return screen;
};

const queueRoute = <const TPath extends string>(path: TPath) => {
  const screen = screenAt(path);
  const route = createRoute({
    getParentRoute: () => adminRoute,
    path,
    validateSearch: (raw: QueueSearchInput) => validateQueueSearch(raw),
    search: { middlewares: [stripSearchParams(DEFAULTS)] },
    loaderDeps: ({ search }: { search: QueueSearch }) => search,
    loader: ({ context, deps }) => context.queryClient.ensureQueryData(queuePageQuery(screen.queueKey, deps, viewerName())),
    errorComponent: ErrorView,
    component: loadsWith(function QueueRouteScreen() {
      const search: QueueSearch = route.useSearch();
      const navigate = useNavigate();
      return (
        <QueueScreenView
          // A fresh screen per folder: selection and the search box's text never leak between queues.
          key={screen.queueKey}
          screen={screen}
          search={search}
          navigate={(next, options) => void navigate({ to: ".", search: next, replace: options?.replace ?? false })}
        />
      );
    }, QueueScreenView),
  });
  return route;
};

/** ADMIN-3: the month tiles, or one month's orders. */
export const futureOrderRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "future-order",
  validateSearch: (raw: FutureSearchInput) => validateFutureSearch(raw),
  search: { middlewares: [stripSearchParams<FutureSearch>(DEFAULTS)] },
  loaderDeps: ({ search }) => search,
  loader: async ({ context: { queryClient }, deps }) => {
    await Promise.all([
      queryClient.ensureQueryData(futureMonthsQuery()),
      deps.month === undefined
        ? undefined
        : queryClient.ensureQueryData(queuePageQuery("futureOrder", { page: 1, size: "All", search: deps.search, processMonth: deps.month }, viewerName())),
    ]);
  },
  errorComponent: ErrorView,
  component: loadsWith(function FutureOrderRouteScreen() {
    const search = futureOrderRoute.useSearch();
    const navigate = useNavigate({ from: futureOrderRoute.fullPath });
    return <FutureOrdersScreen search={search} navigate={(next, options) => void navigate({ search: next, replace: options?.replace ?? false })} />;
  }, FutureOrdersScreen),
});

/** ADMIN-7: Admin only. Other roles may open the address; the server refuses them and the screen says so. */
export const processedOrderRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "processed-order",
  validateSearch: (raw: QueueSearchInput) => validateQueueSearch(raw),
  search: { middlewares: [stripSearchParams(DEFAULTS)] },
  loaderDeps: ({ search }) => ({ page: search.page, size: search.size }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(processedOrdersQuery(deps.page, deps.size)),
  errorComponent: ErrorView,
  component: loadsWith(function ProcessedOrderRouteScreen() {
    const search = processedOrderRoute.useSearch();
    const navigate = useNavigate({ from: processedOrderRoute.fullPath });
    return <ProcessedOrdersScreen search={search} navigate={(next, options) => void navigate({ search: next, replace: options?.replace ?? false })} />;
  }, ProcessedOrdersScreen),
});

/** The fourteen folders' routes (QUEUE-1, ADMIN-3) and Order Processed (ADMIN-7), each at its literal path. */
export const queueRoutes = [
  queueRoute("recent-order"),
  queueRoute("priority-order"),
  queueRoute("pending-order"),
  queueRoute("completed-order"),
  queueRoute("deleted-order"),
  queueRoute("awaiting-response"),
  queueRoute("awaiting-govt"),
  queueRoute("called"),
  queueRoute("order-history"),
  queueRoute("contact-customer"),
  queueRoute("refund-order"),
  queueRoute("my-order"),
  queueRoute("chargeback"),
  futureOrderRoute,
  processedOrderRoute,
] as const;
