import { comparePositions, formatPosition, type EventStore, type SqlDriver } from "@etd/event-store";
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
}

export const projectionLag = async (driver: SqlDriver, store: EventStore): Promise<BuildLag[]> => {
  const [builds, head] = await Promise.all([listBuilds(driver.query), store.headPosition()]);
  const hasLog = (await driver.query("select to_regclass('es_events') is not null as present"))[0]?.present === true;
  return Promise.all(
    builds.map(async (build) => {
      let eventsBehind: number | undefined;
      let secondsBehind = 0;
      if (comparePositions(build.checkpoint, head) < 0 && hasLog) {
        const row = (
          await driver.query(
            `select count(*)::bigint as behind, extract(epoch from now() - min(recorded_at)) as age
               from es_events
              where (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
                and transaction_id < pg_snapshot_xmin(pg_current_snapshot())`,
            [build.checkpoint.tx.toString(), build.checkpoint.seq.toString()],
          )
        )[0]!;
        eventsBehind = Number(row.behind);
        secondsBehind = row.age === null ? 0 : Math.max(0, Number(row.age));
      } else if (hasLog) {
        eventsBehind = 0;
      }
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
      };
    }),
  );
};
