import { formatPosition, parsePosition, START } from "../port.ts";
import { logBehind } from "../sql/log-behind.ts";
import type { SqlDriver } from "../sql/sql-event-store.ts";

/** How far each reactor (mail, erasure, the relay) is behind the log, and who holds its lease. */
export interface ReactorLag {
  readonly reactor: string;
  readonly checkpoint: string;
  readonly eventsBehind: number | undefined;
  readonly secondsBehind: number;
  /** The process following the log now; undefined while no lease is held (all stopped or between holders). */
  readonly leaseOwner: string | undefined;
}

export const reactorLag = async (driver: SqlDriver): Promise<ReactorLag[]> => {
  const [present] = await driver.query("select to_regclass('reactor_leases') is not null as present");
  if (present?.present !== true) return [];
  const rows = await driver.query(
    `select coalesce(c.name, l.name) as name, c.position, case when l.expires_at > now() then l.owner end as owner
       from reactor_checkpoints c full join reactor_leases l on l.name = c.name
      order by 1`,
  );
  return Promise.all(
    rows.map(async (row) => {
      const checkpoint = (typeof row.position === "string" && parsePosition(row.position)) || START;
      const behind = await logBehind(driver, checkpoint);
      return {
        reactor: row.name as string,
        checkpoint: formatPosition(checkpoint),
        eventsBehind: behind?.events,
        secondsBehind: behind?.seconds ?? 0,
        leaseOwner: (row.owner as string | null) ?? undefined,
      };
    }),
  );
};
