import type { Query } from "@etd/event-store";
import type { Projection } from "../../src/engine/projection.ts";

/*
 * A fingerprint of every read model as queries see it (through the views, so of the live build):
 * per table, its row count and the md5 of all its rows as text in a fixed order. Two builds of
 * the same log are the same read model exactly when every fingerprint matches.
 */

export interface TableChecksum {
  readonly rows: number;
  readonly md5: string;
}

export const readModelChecksums = async (query: Query, projections: readonly Projection[]): Promise<Record<string, TableChecksum>> => {
  const sums: Record<string, TableChecksum> = {};
  for (const projection of projections) {
    for (const base of projection.tables) {
      const [row] = await query(`select count(*)::bigint as rows, md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as md5 from ${base} t`);
      sums[`${projection.name}.${base}`] = { rows: Number(row!.rows), md5: String(row!.md5) };
    }
  }
  return sums;
};

/** Every row of every read model as text, per table: to say which rows differ when fingerprints do. */
export const readModelRows = async (query: Query, projections: readonly Projection[]): Promise<Record<string, readonly string[]>> => {
  const tables: Record<string, readonly string[]> = {};
  for (const projection of projections) {
    for (const base of projection.tables) {
      tables[`${projection.name}.${base}`] = (await query(`select t::text as row from ${base} t order by 1`)).map((row) => String(row.row));
    }
  }
  return tables;
};

/** The rows each side holds and the other does not, at most `most` of each, for tables that differ. */
export const rowDifferences = (a: Record<string, readonly string[]>, b: Record<string, readonly string[]>, most = 10): string => {
  const lines: string[] = [];
  for (const table of Object.keys(a)) {
    const left = new Set(a[table]);
    const right = new Set(b[table] ?? []);
    const onlyLeft = [...left].filter((row) => !right.has(row));
    const onlyRight = [...right].filter((row) => !left.has(row));
    if (onlyLeft.length === 0 && onlyRight.length === 0) continue;
    lines.push(`${table}: ${onlyLeft.length} rows only in the first, ${onlyRight.length} only in the second`);
    for (const row of onlyLeft.slice(0, most)) lines.push(`  first:  ${row}`);
    for (const row of onlyRight.slice(0, most)) lines.push(`  second: ${row}`);
  }
  return lines.join("\n");
};

export interface LiveBuild {
  readonly name: string;
  readonly build: number;
  readonly eventsApplied: number;
  readonly checkpoint: string;
  readonly leaseOwner: string | null;
}

/** The live build of each projection, as the registry has it. */
export const liveBuilds = async (query: Query, projections: readonly Projection[]): Promise<Map<string, LiveBuild>> => {
  const rows = await query(
    "select name, build, events_applied, checkpoint_tx::text || '.' || checkpoint_seq::text as checkpoint, lease_owner from projection_builds where status = 'live' and name = any($1::text[])",
    [projections.map((p) => p.name)],
  );
  return new Map(
    rows.map((row) => [
      row.name as string,
      {
        name: row.name as string,
        build: Number(row.build),
        eventsApplied: Number(row.events_applied),
        checkpoint: row.checkpoint as string,
        leaseOwner: (row.lease_owner as string | null) ?? null,
      },
    ]),
  );
};

/** How many events the log holds, and the position of its last one (`tx.seq`, as checkpoints print). */
export const logSize = async (query: Query): Promise<{ readonly events: number; readonly head: string }> => {
  const [count] = await query("select count(*)::bigint as events from es_events");
  const [head] = await query("select transaction_id::text || '.' || global_position::text as head from es_events order by transaction_id desc, global_position desc limit 1");
  return { events: Number(count!.events), head: (head?.head as string | undefined) ?? "0.0" };
};
