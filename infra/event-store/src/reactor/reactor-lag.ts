import { formatPosition, parsePosition, START } from "../port.ts";
import { logBehind } from "../sql/log-behind.ts";
import type { SqlDriver } from "../sql/sql-event-store.ts";

/** How far each reactor (mail, erasure, the relay) is behind the log, who holds its lease, and how it last failed. */
export interface ReactorLag {
  readonly reactor: string;
  readonly checkpoint: string;
  readonly eventsBehind: number | undefined;
  readonly secondsBehind: number;
  /** The process following the log now; undefined while no lease is held (all stopped or between holders). */
  readonly leaseOwner: string | undefined;
  /** Since when that process has held the lease. */
  readonly leaseSince: Date | undefined;
  /** Its last failed batch, if it ever failed, and when. */
  readonly lastError: { readonly message: string; readonly at: Date } | undefined;
  /** When it tries again; undefined unless it is waiting out a back-off after that failure. */
  readonly retryAt: Date | undefined;
}

const dateOf = (value: unknown): Date | undefined => (value === null || value === undefined ? undefined : new Date(value as string));

export const reactorLag = async (driver: SqlDriver): Promise<ReactorLag[]> => {
  const [present] = await driver.query(
    "select to_regclass('reactor_leases') is not null as present, to_regclass('reactor_failures') is not null as failures",
  );
  if (present?.present !== true) return [];
  // Both arrived with issue 28, in the reactors' own migration: a database only an older reactor has run lacks them.
  const failures = present.failures === true;
  const rows = await driver.query(
    `select coalesce(c.name, l.name) as name, c.position, case when l.expires_at > now() then l.owner end as owner,
            ${failures ? "case when l.expires_at > now() then l.since end as since, f.error, f.failed_at, f.retry_at" : "null as since, null as error, null as failed_at, null as retry_at"}
       from reactor_checkpoints c full join reactor_leases l on l.name = c.name
       ${failures ? "left join reactor_failures f on f.name = coalesce(c.name, l.name)" : ""}
      order by 1`,
  );
  return Promise.all(
    rows.map(async (row) => {
      const checkpoint = (typeof row.position === "string" && parsePosition(row.position)) || START;
      const behind = await logBehind(driver, checkpoint);
      const failedAt = dateOf(row.failed_at);
      return {
        reactor: row.name as string,
        checkpoint: formatPosition(checkpoint),
        eventsBehind: behind?.events,
        secondsBehind: behind?.seconds ?? 0,
        leaseOwner: (row.owner as string | null) ?? undefined,
        leaseSince: dateOf(row.since),
        lastError: failedAt && typeof row.error === "string" ? { message: row.error, at: failedAt } : undefined,
        retryAt: dateOf(row.retry_at),
      };
    }),
  );
};
