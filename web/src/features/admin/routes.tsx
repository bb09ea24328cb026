import { isAllowed } from "@etd/contract";
import { createRoute, lazyRouteComponent, useNavigate } from "@tanstack/react-router";
import { ErrorView } from "../../app/error-view.tsx";
import { loadsWith } from "../../app/lazy-screen.ts";
import { adminRoute } from "../../app/routes.tsx";
import { Loading } from "../../components/ui/loading.tsx";
import { OPERATIONS, QUEUES, SERVICE_LEVELS, TEAM } from "@etd/contract/endpoints";
import { endpointQuery } from "../../lib/endpoint-query.ts";
import { teamMembersQuery, teamMemberTypesQuery } from "../../lib/team-members.ts";
import { countryOrdersQuery, processedByQuery } from "./utils/report-queries.ts";
import { validateReportSearch, type ReportSearch } from "./utils/report-search.ts";

/*
 * The admin screens under /admin (ADMIN-1, 2, 4, 5, 6, AUTH-8). Each loader warms the query its
 * screen reads, so the screen renders with the server's answer instead of a spinner; the server
 * decides who may read what, and a refusal is shown as its message. Each screen's code is
 * fetched with its route (see app/routes.tsx).
 */

const ManageTeamScreen = lazyRouteComponent(() => import("./components/manage-team-screen.tsx"), "ManageTeamScreen");
const CountryOrderScreen = lazyRouteComponent(() => import("./components/country-order-screen.tsx"), "CountryOrderScreen");
const ProcessedByScreen = lazyRouteComponent(() => import("./components/processed-by-screen.tsx"), "ProcessedByScreen");

/** Only what a report's URL may hold; empty values leave the URL. */
const cleanSearch = (next: ReportSearch): ReportSearch => validateReportSearch({ ...next });

export const manageTeamRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "manage-team",
  loader: async ({ context: { queryClient } }) => {
    await Promise.all([queryClient.ensureQueryData(teamMembersQuery()), queryClient.ensureQueryData(teamMemberTypesQuery())]);
  },
  pendingComponent: Loading,
  errorComponent: ErrorView,
  component: ManageTeamScreen,
});

export const editTeamMemberRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "manage-team/$teamMemberId",
  loader: async ({ context: { queryClient }, params }) => {
    await Promise.all([
      queryClient.ensureQueryData(teamMembersQuery()),
      queryClient.ensureQueryData(teamMemberTypesQuery()),
      queryClient.ensureQueryData(endpointQuery(TEAM.getTeamMemberInfo, { params: { id: params.teamMemberId } })),
    ]);
  },
  pendingComponent: Loading,
  errorComponent: ErrorView,
  component: loadsWith(function EditTeamMemberRoute() {
    const { teamMemberId } = editTeamMemberRoute.useParams();
    return <ManageTeamScreen editingId={teamMemberId} />;
  }, ManageTeamScreen),
});

export const gatewaySettingRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "gateway-setting",
  loader: ({ context }) => context.queryClient.ensureQueryData(endpointQuery(QUEUES.getPaymentGateways, {})),
  pendingComponent: Loading,
  errorComponent: ErrorView,
  component: lazyRouteComponent(() => import("./components/gateway-setting-screen.tsx"), "GatewaySettingScreen"),
});

// Issue 27: the service-level policy; Admin sets it, Manager reads it, the server refuses anyone else.
export const serviceLevelsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "service-levels",
  loader: ({ context }) => context.queryClient.ensureQueryData(endpointQuery(SERVICE_LEVELS.getServiceLevels, {})),
  pendingComponent: Loading,
  errorComponent: ErrorView,
  component: lazyRouteComponent(() => import("./components/service-levels-screen.tsx"), "ServiceLevelsScreen"),
});

// Issue 28: the operator's screen, Admin only; the loader asks only for whom the server answers.
export const operationsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "operations",
  loader: ({ context }) =>
    context.session && isAllowed(context.session.role, "operations.manage") ? context.queryClient.ensureQueryData(endpointQuery(OPERATIONS.getOperations, {})) : undefined,
  pendingComponent: Loading,
  errorComponent: ErrorView,
  component: lazyRouteComponent(() => import("./components/operations-screen.tsx"), "OperationsScreen"),
});

export const changePasswordRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "change-password",
  pendingComponent: Loading,
  errorComponent: ErrorView,
  component: lazyRouteComponent(() => import("./components/change-password-screen.tsx"), "ChangePasswordScreen"),
});

export const countryOrderRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "country-order",
  validateSearch: validateReportSearch,
  loaderDeps: ({ search }) => ({ fromDate: search.fromDate, toDate: search.toDate }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(countryOrdersQuery(deps)),
  pendingComponent: Loading,
  errorComponent: ErrorView,
  component: loadsWith(function CountryOrderRoute() {
    const search = countryOrderRoute.useSearch();
    const navigate = useNavigate();
    return (
      <CountryOrderScreen
        search={search}
        onSearch={(next, replace) => void navigate({ to: "/admin/country-order", search: cleanSearch(next), replace })}
      />
    );
  }, CountryOrderScreen),
});

// ADMIN-5 has no menu entry in 000 §2; this is its address, linked from Order Processed (Admin only).
export const processedByRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "processed-by",
  validateSearch: validateReportSearch,
  loaderDeps: ({ search }) => ({ fromDate: search.fromDate, toDate: search.toDate }),
  // Only for whom the server answers (ADMIN-5 is Admin only); the screen tells anyone else.
  loader: ({ context, deps }) =>
    context.session && isAllowed(context.session.role, "orders.processed") ? context.queryClient.ensureQueryData(processedByQuery(deps)) : undefined,
  pendingComponent: Loading,
  errorComponent: ErrorView,
  component: loadsWith(function ProcessedByRoute() {
    const search = processedByRoute.useSearch();
    const navigate = useNavigate();
    return (
      <ProcessedByScreen
        search={search}
        onSearch={(next, replace) => void navigate({ to: "/admin/processed-by", search: cleanSearch(next), replace })}
      />
    );
  }, ProcessedByScreen),
});

export const sendInvoiceRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "send-invoice",
  pendingComponent: Loading,
  errorComponent: ErrorView,
  component: lazyRouteComponent(() => import("./components/send-invoice-screen.tsx"), "SendInvoiceScreen"),
});

export const adminScreenRoutes = [
  manageTeamRoute,
  editTeamMemberRoute,
  gatewaySettingRoute,
  serviceLevelsRoute,
  operationsRoute,
  changePasswordRoute,
  countryOrderRoute,
  processedByRoute,
  sendInvoiceRoute,
] as const;
