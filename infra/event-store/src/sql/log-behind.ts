import type { GlobalPosition } from "../port.ts";
import type { SqlDriver } from "./sql-event-store.ts";

/** How far a reader at `checkpoint` is behind the visible log: events not yet read and the age of the oldest. */
export interface Behind {
  readonly events: number;
  readonly seconds: number;
}

/**
 * Counted on the SQL store's table, up to the horizon readers see (DESIGN §5): projections and
 * reactors report their lag with it. Undefined where the log is not in this database (KurrentDB).
 */
export const logBehind = async (driver: SqlDriver, checkpoint: GlobalPosition): Promise<Behind | undefined> => {
  const [present] = await driver.query("select to_regclass('es_events') is not null as present");
  if (present?.present !== true) return undefined;
  const [row] = await driver.query(
    `select count(*)::bigint as behind, extract(epoch from now() - min(recorded_at)) as age
       from es_events
      where (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
        and transaction_id < pg_snapshot_xmin(pg_current_snapshot())`,
    [checkpoint.tx.toString(), checkpoint.seq.toString()],
  );
  return { events: Number(row!.behind), seconds: row!.age === null ? 0 : Math.max(0, Number(row!.age)) };
};
