export { dashboardProjection } from "./dashboard-projection.ts";
export { dashboardDay, memberDays } from "./dashboard-queries.ts";
export { dashboardReader } from "./dashboard-reuse.ts";
