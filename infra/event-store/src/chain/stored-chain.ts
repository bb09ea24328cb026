import type { SqlDriver } from "../sql/sql-event-store.ts";
import { createChainVerifier, type ChainedEvent, type ChainReport } from "./event-chain.ts";

/*
 * The log's events as the chain covers them (issue 14): every field as the stored text, in
 * stream order, page by page, for the verifier and for exports.
 */

const PAGE = 5000;

const CHAIN_COLUMNS = `stream_id, stream_position::text as stream_position, event_id::text as event_id, type,
  schema_version::text as schema_version, data::text as data, metadata::text as metadata,
  to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as recorded_at, encode(hash, 'hex') as hash`;

const toChained = (row: Record<string, unknown>): ChainedEvent => ({
  streamId: row.stream_id as string,
  streamPosition: row.stream_position as string,
  eventId: row.event_id as string,
  type: row.type as string,
  schemaVersion: row.schema_version as string,
  data: row.data as string,
  metadata: row.metadata as string,
  recordedAt: row.recorded_at as string,
  hash: row.hash as string,
});

/** Every stored event in stream order, or one stream's, read in pages. */
export async function* readChain(driver: Pick<SqlDriver, "query">, streamId?: string): AsyncGenerator<ChainedEvent> {
  let after: [string, string] = ["", "0"];
  for (;;) {
    const rows = await driver.query(
      `select ${CHAIN_COLUMNS} from es_events
        where ($1::text is null or stream_id = $1) and (stream_id, stream_position) > ($2::text, $3::bigint)
        order by stream_id, stream_position limit ${PAGE}`,
      [streamId ?? null, after[0], after[1]],
    );
    for (const row of rows) yield toChained(row);
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    after = [last.stream_id as string, last.stream_position as string];
  }
}

/** Walks the stored log and names the first event that does not match (`npm run audit:verify`). */
export const verifyStoredChain = async (driver: Pick<SqlDriver, "query">, streamId?: string): Promise<ChainReport> => {
  const verifier = createChainVerifier();
  for await (const event of readChain(driver, streamId)) {
    const broken = verifier.check(event);
    if (broken) return { checked: verifier.checked, firstBreak: broken };
  }
  return { checked: verifier.checked, firstBreak: undefined };
};
