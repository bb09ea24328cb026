import { formatPosition, logBehind, type SqlDriver } from "@etd/event-store";
import { listBuilds } from "./registry.ts";

/*
 * How far each projection build is behind the log (DESIGN §5): events not yet applied and the age
 * of the oldest of them. Counted on the SQL store's table; other stores answer seconds only.
 */

export interface BuildLag {
  readonly projection: string;
  readonly build: number;
  readonly version: number;
  readonly status: "building" | "live" | "retired";
  readonly checkpoint: string;
  readonly eventsApplied: number;
  readonly eventsBehind: number | undefined;
  readonly secondsBehind: number;
  readonly leaseOwner: string | undefined;
  readonly startedAt: Date;
}

export const projectionLag = async (driver: SqlDriver): Promise<BuildLag[]> => {
  const builds = await listBuilds(driver.query);
  return Promise.all(
    builds.map(async (build) => {
      const behind = await logBehind(driver, build.checkpoint);
      const eventsBehind = behind?.events;
      const secondsBehind = behind?.seconds ?? 0;
      return {
        projection: build.name,
        build: build.build,
        version: build.version,
        status: build.status,
        checkpoint: formatPosition(build.checkpoint),
        eventsApplied: build.eventsApplied,
        eventsBehind,
        secondsBehind,
        leaseOwner: build.leaseOwner,
        startedAt: build.startedAt,
      };
    }),
  );
};
