export { dashboardProjection } from "./dashboard-projection.ts";
export { dashboardDay, memberDays, type DashboardAsk } from "./dashboard-queries.ts";
