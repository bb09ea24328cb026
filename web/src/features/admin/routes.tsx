import type { QueryClient } from "@tanstack/react-query";
import { createRoute, useNavigate, type AnyRoute } from "@tanstack/react-router";
import { teamMemberInfoQuery } from "./api/get-team-member-info.ts";
import { teamMemberTypesQuery } from "./api/get-team-member-types.ts";
import { teamMembersQuery } from "./api/get-team-members.ts";
import { paymentGatewaysQuery } from "./api/get-payment-gateways.ts";
import { countryOrdersQuery } from "./api/get-country-orders.ts";
import { processedByQuery } from "./api/get-processed-by-count.ts";
import { Loading } from "./components/admin-page.tsx";
import { ChangePasswordScreen } from "./components/change-password-screen.tsx";
import { CountryOrderScreen } from "./components/country-order-screen.tsx";
import { GatewaySettingScreen } from "./components/gateway-setting-screen.tsx";
import { ManageTeamScreen } from "./components/manage-team-screen.tsx";
import { ProcessedByScreen } from "./components/processed-by-screen.tsx";
import { SendInvoiceScreen } from "./components/send-invoice-screen.tsx";
import { validateReportSearch, type ReportSearch } from "./utils/report-search.ts";

/*
 * The admin screens under /admin (ADMIN-1, 2, 4, 5, 6, AUTH-8). Each loader warms the query its
 * screen reads, so the screen renders with the server's answer instead of a spinner; the server
 * decides who may read what, and a refusal is shown as its message.
 */

/** The router context the app provides (router.tsx). */
const queryClientOf = (context: unknown): QueryClient => (context as { queryClient: QueryClient }).queryClient;

/** Only what a report's URL may hold; empty values leave the URL. */
const cleanSearch = (next: ReportSearch): ReportSearch => validateReportSearch({ ...next });

export const adminScreenRoutes = (admin: AnyRoute): AnyRoute[] => {
  const manageTeam = createRoute({
    getParentRoute: () => admin,
    path: "manage-team",
    loader: async ({ context }) => {
      const queryClient = queryClientOf(context);
      await Promise.all([queryClient.ensureQueryData(teamMembersQuery()), queryClient.ensureQueryData(teamMemberTypesQuery())]);
    },
    pendingComponent: Loading,
    component: () => <ManageTeamScreen />,
  });

  const editTeamMember = createRoute({
    getParentRoute: () => admin,
    path: "manage-team/$teamMemberId",
    loader: async ({ context, params }) => {
      const queryClient = queryClientOf(context);
      await Promise.all([
        queryClient.ensureQueryData(teamMembersQuery()),
        queryClient.ensureQueryData(teamMemberTypesQuery()),
        queryClient.ensureQueryData(teamMemberInfoQuery(params.teamMemberId)),
      ]);
    },
    pendingComponent: Loading,
    component: function EditTeamMemberRoute() {
      const { teamMemberId } = editTeamMember.useParams();
      return <ManageTeamScreen editingId={teamMemberId} />;
    },
  });

  const gatewaySetting = createRoute({
    getParentRoute: () => admin,
    path: "gateway-setting",
    loader: ({ context }) => queryClientOf(context).ensureQueryData(paymentGatewaysQuery()),
    pendingComponent: Loading,
    component: () => <GatewaySettingScreen />,
  });

  const changePassword = createRoute({
    getParentRoute: () => admin,
    path: "change-password",
    component: () => <ChangePasswordScreen />,
  });

  const countryOrder = createRoute({
    getParentRoute: () => admin,
    path: "country-order",
    validateSearch: validateReportSearch,
    loaderDeps: ({ search }) => ({ fromDate: search.fromDate, toDate: search.toDate }),
    loader: ({ context, deps }) => queryClientOf(context).ensureQueryData(countryOrdersQuery(deps)),
    pendingComponent: Loading,
    component: function CountryOrderRoute() {
      const search = countryOrder.useSearch();
      const navigate = useNavigate();
      return (
        <CountryOrderScreen
          search={search}
          onSearch={(next, replace) => void navigate({ to: "/admin/country-order", search: cleanSearch(next), replace })}
        />
      );
    },
  });

  // ADMIN-5 has no menu entry in 000 §2; this is its address.
  const processedBy = createRoute({
    getParentRoute: () => admin,
    path: "processed-by",
    validateSearch: validateReportSearch,
    loaderDeps: ({ search }) => ({ fromDate: search.fromDate, toDate: search.toDate }),
    loader: ({ context, deps }) => queryClientOf(context).ensureQueryData(processedByQuery(deps)),
    pendingComponent: Loading,
    component: function ProcessedByRoute() {
      const search = processedBy.useSearch();
      const navigate = useNavigate();
      return (
        <ProcessedByScreen
          search={search}
          onSearch={(next, replace) => void navigate({ to: "/admin/processed-by", search: cleanSearch(next), replace })}
        />
      );
    },
  });

  const sendInvoice = createRoute({
    getParentRoute: () => admin,
    path: "send-invoice",
    component: () => <SendInvoiceScreen />,
  });

  return [manageTeam, editTeamMember, gatewaySetting, changePassword, countryOrder, processedBy, sendInvoice];
};
