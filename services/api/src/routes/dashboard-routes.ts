import { Readable } from "node:stream";
import { EXPORT_RUNNING, isAllowed, MEMBER_DAY_COLUMNS } from "@etd/contract";
import { dashboardReader, memberDays } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import { isAccountChanged, recordExport } from "../commands/staff-accounts.ts";
import type { Handlers } from "../http/endpoint.ts";
import { utcDay } from "../http/fields.ts";
import { fail, ok } from "../http/reply.ts";
import type { MemberSlots } from "../http/member-slots.ts";
import { csvReply, csvStream } from "./export-routes.ts";

/*
 * The day at a glance (issue 27), read from the dashboard read model. Who sees what is decided
 * here from the session alone: an Admin or Manager ("dashboard.team") the whole team, anyone else
 * their own figures and line (the request names nobody, so no one can ask for another's). The
 * per-member CSV is the queues' export: Admin and Manager, one of their export slots, recorded as
 * DataExported ("report" "team-day" for today) before the first byte.
 */

/** How long figures read at an unchanged read-model position answer again (ADR 0045): below the page's minute refresh. */
const REUSE_MS = 10_000;

export const dashboardHandlers = (deps: ApiDeps, slots: MemberSlots) => {
  const reader = dashboardReader(deps.readDb.query, REUSE_MS);
  return {
    getDashboard: async ({ user }) => {
      const own = isAllowed(user.type, "dashboard.team") ? {} : { staffId: user.id };
      return ok("Dashboard loaded.", await reader.read({ now: deps.now(), ...own }));
    },
    exportDashboardMembers: async (context) => {
      const now = deps.now();
      const today = utcDay(now);
      const free = slots.take(context.user.id);
      if (!free) return fail(429, EXPORT_RUNNING);
      try {
        // The same scope as the screen's, whatever the export's guard allows (it is orders.export).
        const own = isAllowed(context.user.type, "dashboard.team") ? {} : { staffId: context.user.id };
        const rows = await memberDays(deps.readDb.query, { now, ...own });
        const recorded = await recordExport(deps, context, { what: "report", report: "team-day", fromDate: today, toDate: today, rows: rows.length });
        if (!isAccountChanged(recorded)) {
          free();
          return recorded;
        }
        const records = rows.map((row) => MEMBER_DAY_COLUMNS.map((column) => column.cell(row)));
        return csvReply(
          `team-day-${today}.csv`,
          csvStream(
            MEMBER_DAY_COLUMNS.map((column) => column.header),
            Readable.from(records),
            free,
          ),
        );
      } catch (error) {
        free();
        throw error;
      }
    },
  } satisfies Partial<Handlers>;
};
