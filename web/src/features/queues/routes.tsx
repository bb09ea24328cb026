import type { QueryClient } from "@tanstack/react-query";
import { createRoute, stripSearchParams, useNavigate, type AnyRoute } from "@tanstack/react-router";
import { readStoredSession } from "../../lib/session.ts";
import { futureMonthsQuery } from "./api/get-future-months.ts";
import { processedOrdersQuery } from "./api/get-processed-orders.ts";
import { queuePageQuery } from "./api/queue-page-query.ts";
import { FutureOrdersScreen } from "./components/future-orders-screen.tsx";
import { ProcessedOrdersScreen } from "./components/processed-orders-screen.tsx";
import { QueueScreenView } from "./components/queue-screen.tsx";
import { DEFAULT_PAGE_SIZE, validateFutureSearch, validateQueueSearch, type FutureSearch, type QueueSearch } from "./queue-search.ts";
import { QUEUE_SCREENS, type QueueScreen } from "./queue-screens.ts";
import "../../styles/queues.css";

/*
 * The queue screens under /admin (QUEUE-1..14, ADMIN-3, ADMIN-7). Page, rows per page and search
 * are URL search params, validated (a bad value falls back to its default) and left out of the
 * URL when they are the defaults. Each loader starts the screen's query so the first paint has
 * the server's answer; the screen then keeps it fresh (live feed, Refresh, after commands).
 */

/** The router context the app provides (router.tsx). */
const queryClientOf = (context: unknown): QueryClient => (context as { queryClient: QueryClient }).queryClient;

const DEFAULTS: QueueSearch = { page: 1, size: DEFAULT_PAGE_SIZE, search: "" };

const viewerName = () => readStoredSession()?.name ?? "";

const queueRoute = (admin: AnyRoute, screen: QueueScreen) => {
  const route = createRoute({
    getParentRoute: () => admin,
    path: screen.path,
    validateSearch: validateQueueSearch,
    search: { middlewares: [stripSearchParams(DEFAULTS)] },
    loaderDeps: ({ search }: { search: QueueSearch }) => search,
    loader: ({ context, deps }) => queryClientOf(context).ensureQueryData(queuePageQuery(screen.queueKey, deps, viewerName())),
    component: function QueueRouteScreen() {
      const search = route.useSearch();
      const navigate = useNavigate();
      return (
        <QueueScreenView
          // A fresh screen per folder: selection and the search box's text never leak between queues.
          key={screen.queueKey}
          screen={screen}
          search={search}
          navigate={(next, options) => void navigate({ to: route.fullPath, search: next, replace: options?.replace ?? false })}
        />
      );
    },
  });
  return route;
};

export const queueRoutes = (admin: AnyRoute): AnyRoute[] => {
  const futureOrder = createRoute({
    getParentRoute: () => admin,
    path: "future-order",
    validateSearch: validateFutureSearch,
    search: { middlewares: [stripSearchParams<FutureSearch>(DEFAULTS)] },
    loaderDeps: ({ search }: { search: FutureSearch }) => search,
    loader: async ({ context, deps }) => {
      const queryClient = queryClientOf(context);
      await Promise.all([
        queryClient.ensureQueryData(futureMonthsQuery()),
        deps.month === undefined
          ? undefined
          : queryClient.ensureQueryData(
              queuePageQuery("futureOrder", { page: 1, size: "All", search: deps.search, processMonth: deps.month }, viewerName()),
            ),
      ]);
    },
    component: function FutureOrderRouteScreen() {
      const search = futureOrder.useSearch();
      const navigate = useNavigate();
      return (
        <FutureOrdersScreen
          search={search}
          navigate={(next, options) => void navigate({ to: futureOrder.fullPath, search: next, replace: options?.replace ?? false })}
        />
      );
    },
  });

  // ADMIN-7: Admin only. Other roles may open the address; the server refuses them and the screen says so.
  const processedOrder = createRoute({
    getParentRoute: () => admin,
    path: "processed-order",
    validateSearch: validateQueueSearch,
    search: { middlewares: [stripSearchParams(DEFAULTS)] },
    loaderDeps: ({ search }: { search: QueueSearch }) => ({ page: search.page, size: search.size }),
    loader: ({ context, deps }) => queryClientOf(context).ensureQueryData(processedOrdersQuery(deps.page, deps.size)),
    component: function ProcessedOrderRouteScreen() {
      const search = processedOrder.useSearch();
      const navigate = useNavigate();
      return (
        <ProcessedOrdersScreen
          search={search}
          navigate={(next, options) => void navigate({ to: processedOrder.fullPath, search: next, replace: options?.replace ?? false })}
        />
      );
    },
  });

  return [...QUEUE_SCREENS.map((screen) => queueRoute(admin, screen)), futureOrder, processedOrder];
};
