import type { DashboardDay } from "../dashboard.ts";
import { EXPORT_RUNNING } from "../queues.ts";
import { answer, endpoints } from "./declare.ts";

/**
 * The day at a glance (issue 27). Every member may open it: an Admin or Manager gets the whole
 * team ("dashboard.team"), anyone else their own figures and line, decided by the server from
 * the session, never from the request. The per-member table's CSV is an export like the
 * queues' (Admin and Manager, audited as DataExported).
 */
export const DASHBOARD = endpoints({
  getDashboard: {
    method: "get",
    path: "/admin/dashboard",
    guard: "orders.read",
    reads: ["dashboard"],
    summary:
      "The day at a glance: backlog per folder by age, overdue and due within the hour, documents sent per hour today and a week ago, per member open, processed, median time to document and share within the service level, mail health (issue 27)",
    data: answer<DashboardDay>(),
  },
  exportDashboardMembers: {
    method: "get",
    path: "/admin/dashboard/export-members",
    guard: "orders.export",
    reads: ["dashboard"],
    sessionCookie: true,
    summary: "The dashboard's per-member table for today as CSV; audited as DataExported (issue 27)",
    file: "text/csv; charset=utf-8",
    answers: { 404: "The member's account is gone", 429: EXPORT_RUNNING },
  },
});
