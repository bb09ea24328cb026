import type { DashboardDay } from "@etd/contract";
import type { Query } from "@etd/event-store";
import { dashboardDay, type DashboardAsk } from "./dashboard-queries.ts";
import { listBuilds } from "../engine/registry.ts";
import { dashboardProjection } from "./dashboard-projection.ts";

/*
 * The dashboard read once per change, however many look (P14, ADR 0045). Every Admin and Manager
 * on the dashboard refetches it after the same live message, and each would otherwise run the
 * whole statement for the same figures. A reader keeps, per scope (the team's, or one member's),
 * the last figures with the read model's position they were read at; a read that finds the live
 * build still at that position, and the figures younger than `reuseMs`, answers them. Checking
 * the position is one lookup of one registry row. Figures are never older than the read model the
 * request could see (the position is read first), and their clock-driven parts (the age buckets,
 * overdue, due within the hour) are at most `reuseMs` old, less than the page's minute refresh;
 * `asOf` says when they were read. Reads of one scope at one position share one statement.
 */

const KEPT_SCOPES = 1000;

interface Kept {
  readonly position: string;
  readonly readAt: number;
  readonly figures: Promise<DashboardDay>;
}

export interface DashboardReader {
  read(ask: DashboardAsk): Promise<DashboardDay>;
}

const livePosition = async (query: Query): Promise<string> => {
  const live = (await listBuilds(query, dashboardProjection.name)).find((build) => build.status === "live");
  // No live build yet: nothing to key on, so nothing is kept.
  return live === undefined ? "" : [live.build, live.checkpoint.tx, live.checkpoint.seq].map(String).join(":");
};

export const dashboardReader = (query: Query, reuseMs: number): DashboardReader => {
  const kept = new Map<string, Kept>();
  return {
    read: async (ask) => {
      const position = await livePosition(query);
      const scope = ask.staffId ?? "";
      const now = ask.now.getTime();
      const last = kept.get(scope);
      // A clock set back (tests, a corrected host clock) is a reason to read again, not to reuse.
      if (position !== "" && last !== undefined && last.position === position && now >= last.readAt && now - last.readAt < reuseMs) {
        return last.figures;
      }
      const figures = dashboardDay(query, ask);
      if (position !== "") {
        if (kept.size >= KEPT_SCOPES && !kept.has(scope)) kept.clear();
        kept.set(scope, { position, readAt: now, figures });
        // A failed read is not kept: the next one tries again.
        figures.catch(() => {
          if (kept.get(scope)?.figures === figures) kept.delete(scope);
        });
      }
      return figures;
    },
  };
};
