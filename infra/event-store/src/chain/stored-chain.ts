import { HORIZON } from "../sql/schema.ts";
import type { SqlDriver } from "../sql/sql-event-store.ts";
import { createChainVerifier, type ChainedEvent, type ChainReport, type ExportedEvent } from "./event-chain.ts";

/*
 * The stored log as its chains cover it (issue 14, ADR 0021): every field as the stored text, in
 * log order, page by page, for `npm run audit:verify`, the verify endpoint and the exports.
 */

type Reader = Pick<SqlDriver, "query">;

/** Rows a walk of the whole log reads at a time (the verifier): few round trips. */
const PAGE = 5000;
/**
 * Rows an export reads at a time: an export is a download a client may drop, and what it read
 * ahead is done for nothing; on the embedded database a read also holds the process while it runs.
 */
const EXPORT_PAGE = 1000;

/**
 * The fields the chains cover, each as its stored text, named as ChainedEvent names them: the
 * verifier checks the rows as they come. The global link, if sealed, is filled in by `pages`.
 */
const CHAIN_COLUMNS = `e.stream_id as "streamId", e.stream_position::text as "streamPosition", e.event_id::text as "eventId",
  e.type, e.schema_version::text as "schemaVersion", e.data::text as data, e.metadata::text as metadata,
  to_char(e.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "recordedAt",
  encode(e.hash, 'hex') as hash, null::text as chain`;

/** The stream predecessor's hash, and the global link of the event just before in the log. */
const PREDECESSOR_COLUMNS = `coalesce((select encode(p.hash, 'hex') from es_events p
    where p.stream_id = e.stream_id and p.stream_position = e.stream_position - 1), repeat('0', 64)) as previous,
  (select encode(pc.hash, 'hex') from es_events p join es_chain pc on pc.global_position = p.global_position
    where (p.transaction_id, p.global_position) < (e.transaction_id, e.global_position)
    order by p.transaction_id desc, p.global_position desc limit 1) as previous_chain`;

const toChained = (row: Record<string, unknown>): ChainedEvent => ({
  streamId: row.streamId as string,
  streamPosition: row.streamPosition as string,
  eventId: row.eventId as string,
  type: row.type as string,
  schemaVersion: row.schemaVersion as string,
  data: row.data as string,
  metadata: row.metadata as string,
  recordedAt: row.recordedAt as string,
  hash: row.hash as string,
  chain: (row.chain as string | null) ?? null,
});

const toExported = (row: Record<string, unknown>): ExportedEvent => ({
  ...toChained(row),
  previous: row.previous as string,
  // The link before an unsealed event says nothing about it: left out so a reader is not misled.
  // The log's first event links to the chain's start, 32 zero bytes.
  previousChain: row.chain === null ? null : ((row.previous_chain as string | null) ?? "0".repeat(64)),
});

/**
 * Sets each row's `chain` to its event's global link, if sealed. One read of es_chain per page,
 * over the page's range of log positions, costs a fraction of a join, whose lookup one by one in
 * es_chain's index took a third of the database's time in the verification (issue 28, P13). A
 * page whose positions lie far apart (a transaction that ran long) asks for its positions instead.
 */
const withLinks = async (reader: Reader, rows: Record<string, unknown>[]): Promise<void> => {
  if (rows.length === 0) return;
  // Positions as numbers: exact below 2^53, which a log's positions do not reach; a page with a
  // longer one (or text that is not a number) asks for its positions one by one.
  let low = Infinity;
  let high = -Infinity;
  for (const row of rows) {
    const seq = +(row.seq_ as string);
    if (seq < low) low = seq;
    if (seq > high) high = seq;
  }
  const links =
    high - low < 4 * rows.length && Number.isSafeInteger(high)
      ? await reader.query(
          `select global_position::text as seq, encode(hash, 'hex') as chain from es_chain where global_position between $1::bigint and $2::bigint`,
          [String(low), String(high)],
        )
      : await reader.query(`select global_position::text as seq, encode(hash, 'hex') as chain from es_chain where global_position = any($1::bigint[])`, [
          rows.map((row) => row.seq_ as string),
        ]);
  const chainOf = new Map<string, string>();
  for (const link of links) chainOf.set(link.seq as string, link.chain as string);
  for (const row of rows) row.chain = chainOf.get(row.seq_ as string) ?? null;
};

/**
 * Events in log order, a page at a time, from a log position on (`inclusive` takes the event at
 * it too). Only below the horizon, as every reader of the log: an event of a transaction still
 * running would otherwise be passed over while later ones are read, and look like a gap.
 */
async function* pages(
  reader: Reader,
  columns: string,
  where: string,
  params: readonly unknown[],
  from: { tx: string; seq: string; inclusive: boolean } = { tx: "0", seq: "0", inclusive: false },
  size = PAGE,
): AsyncGenerator<Record<string, unknown>[]> {
  const n = params.length;
  const read = async (after: typeof from) => {
    const rows = await reader.query(
      `select ${columns}, e.transaction_id::text as tx_, e.global_position::text as seq_
         from es_events e
        where ${HORIZON} and (e.transaction_id, e.global_position) ${after.inclusive ? ">=" : ">"} ($${n + 1}::xid8, $${n + 2}::bigint) ${where}
        order by e.transaction_id, e.global_position limit ${size}`,
      [...params, after.tx, after.seq],
    );
    await withLinks(reader, rows);
    return rows;
  };
  // The next page is asked for before this one is handed over: the database reads it while the
  // caller hashes this one.
  let page = read(from);
  try {
    for (;;) {
      const rows = await page;
      const last = rows.at(-1);
      if (rows.length === size && last) {
        page = read({ tx: last.tx_ as string, seq: last.seq_ as string, inclusive: false });
        // A caller that stops early never takes this read: its failure is nobody's to handle.
        page.catch(() => undefined);
      }
      // Whole pages: an await per row would cost more than checking the row.
      yield rows;
      if (rows.length < size) return;
    }
  } finally {
    // A caller that stops early is done with the log only once the read asked for ahead is over:
    // whoever counts the work running (an export's slot) must not count it finished before.
    await page.catch(() => undefined);
  }
}

/** Every stored event in log order. */
export async function* readChain(reader: Reader): AsyncGenerator<ChainedEvent> {
  for await (const rows of pages(reader, CHAIN_COLUMNS, "", [])) for (const row of rows) yield toChained(row);
}

/** The global chain's end as the sealer left it. */
const readChainHead = async (reader: Reader): Promise<{ hash: string; sealed: number }> => {
  const [row] = await reader.query(`select encode(hash, 'hex') as hash, sealed::text as sealed from es_chain_head`);
  return { hash: row!.hash as string, sealed: Number(row!.sealed) };
};

/**
 * Walks the whole stored log in order, recomputing both chains, and names the first event that
 * does not match (`npm run audit:verify`, GET /api/audit/verify). The head is read first: every
 * event sealed by then must be met, and the last of them must end on its hash; a log that stops
 * short lost its last events, named as "truncated" at the last event that is left.
 */
export const verifyStoredChain = async (reader: Reader): Promise<ChainReport> => {
  const head = await readChainHead(reader);
  const verifier = createChainVerifier({ partial: false, consecutive: true });
  let last: ChainedEvent | undefined;
  let headMet = head.sealed === 0;
  for await (const rows of pages(reader, CHAIN_COLUMNS, "", [])) {
    // The rows carry every field under ChainedEvent's names (and the page's keys beside them).
    for (const event of rows as unknown as ChainedEvent[]) {
      const broken = verifier.check(event);
      if (broken) return verifier.report(broken);
      last = event;
      if (!headMet && verifier.sealed === head.sealed) {
        if (verifier.head !== head.hash) return verifier.report({ ...where(event), reason: "chain" });
        headMet = true;
      }
    }
  }
  return verifier.report(headMet ? undefined : { ...where(last), reason: "truncated" });
};

const where = (event: ChainedEvent | undefined) => ({
  streamId: event?.streamId ?? "",
  streamPosition: event?.streamPosition ?? "0",
  eventId: event?.eventId ?? "",
});

/** Seals every committed event the global chain does not cover yet; returns how many. */
export const sealLog = async (driver: Reader): Promise<number> => {
  let total = 0;
  for (;;) {
    const [row] = await driver.query(`select es_seal(10000, true) as n`);
    const n = Number(row!.n);
    total += n;
    if (n < 10000) return total;
  }
};

/** One order's events and its mails', in log order, each with its predecessors' hashes. */
export async function* exportStreams(reader: Reader, streamIds: readonly string[]): AsyncGenerator<ExportedEvent> {
  for await (const rows of pages(reader, `${CHAIN_COLUMNS}, ${PREDECESSOR_COLUMNS}`, "and e.stream_id = any($1::text[])", [streamIds], undefined, EXPORT_PAGE)) {
    for (const row of rows) yield toExported(row);
  }
}

/** The order's stream and every mail stream one of its events asked for (`mail-<event id>`). */
export const orderStreams = async (reader: Reader, orderStream: string): Promise<string[]> => {
  const rows = await reader.query(
    `select $1::text as stream_id
     union all
     select distinct m.stream_id from es_events o join es_events m on m.stream_id = 'mail-' || o.event_id::text
      where o.stream_id = $1`,
    [orderStream],
  );
  return rows.map((r) => r.stream_id as string);
};

/**
 * The events recorded in a time range, as one consecutive slice of the log: from the first event
 * in log order recorded at or after `from` to the last recorded at or before `to`. Log order and
 * recording time agree to within a transaction's length, so a slice is what a verifier can link.
 */
export async function* exportRange(reader: Reader, from: string, to: string): AsyncGenerator<ExportedEvent> {
  const bound = async (direction: "asc" | "desc", condition: string, at: string) =>
    (
      await reader.query(
        `select transaction_id::text as tx, global_position::text as seq from es_events
          where ${HORIZON} and recorded_at ${condition} $1::timestamptz
          order by transaction_id ${direction}, global_position ${direction} limit 1`,
        [at],
      )
    )[0];
  const first = await bound("asc", ">=", from);
  const last = await bound("desc", "<=", to);
  if (!first || !last) return;
  for await (const rows of pages(
    reader,
    `${CHAIN_COLUMNS}, ${PREDECESSOR_COLUMNS}`,
    "and (e.transaction_id, e.global_position) <= ($1::xid8, $2::bigint)",
    [last.tx, last.seq],
    { tx: first.tx as string, seq: first.seq as string, inclusive: true },
    EXPORT_PAGE,
  )) {
    for (const row of rows) yield toExported(row);
  }
}
