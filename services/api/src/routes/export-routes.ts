import { Readable, pipeline } from "node:stream";
import { stringify } from "csv-stringify";
import {
  COUNTRY_ORDER_COLUMNS,
  EXPORT_RUNNING,
  isAllowed,
  ORDER_PROCESSED_COLUMNS,
  PROCESSED_BY_COLUMNS,
  QUEUE_KEYS,
  queueCellText,
  queueColumnsOf,
  type Action,
  type QueueKey,
  type ReportName,
  type Role,
} from "@etd/contract";
import { dayOf, isReportName } from "@etd/contract/requests";
import {
  countProcessedOrderExport,
  countQueueExport,
  processedOrderExportBatches,
  queueExportBatches,
  queueKeyOf,
  reportExportRows,
  type QueueExportParams,
  type ReportExportRows,
} from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import { isAccountChanged, recordExport } from "../commands/staff-accounts.ts";
import { FORBIDDEN, type Handlers, type StaffRequest } from "../http/endpoint.ts";
import { memberSlots, streamInSlot, type MemberSlots } from "../http/member-slots.ts";
import { utcDay } from "../http/fields.ts";
import { fail, fileReply, type FileAnswer, type Reply } from "../http/reply.ts";

/*
 * CSV exports of the queues, their searches and the reports (issue 16 D).
 *
 * - Who: Admin and Manager (`orders.export`): a back office that holds passport data lets few
 *   people take rows out of it. Order Processed (ADMIN-7) and its Processed By counts (ADMIN-5)
 *   are Admin only, their exports too. The links are plain GETs a browser downloads with its own
 *   download manager, so the session cookie is accepted as well as the header, from this site only
 *   (the endpoint layer's `sessionCookie`).
 * - Audited first: the matching rows are counted and DataExported is appended on the member's
 *   stream through the staff decider before the first byte; when that is refused or fails the
 *   answer is the JSON refusal and no CSV is sent.
 * - Streamed: keyset batches of 1,000 rows (queue-export.ts; the Order Processed list's in
 *   processed-orders-export.ts) become records, csv-stringify turns them into text, and the
 *   endpoint layer pipes that into the response. Every step is a pipeline
 *   with backpressure, so a slow reader slows the reads and at most a few batches are in memory;
 *   a reader who goes away ends the pipeline, which ends the query loop. A session that ends
 *   meanwhile (signed out, member deleted or re-roled, second factor reset) ends it too, at the
 *   next batch: the download breaks.
 * - What: a header row of the screen's columns (QUEUE-3, without Action, from the contract's
 *   column list the tables use too) and the values as the screen shows them (QUEUE-6: the list
 *   rows' display fields). UTF-8 with a BOM so that spreadsheet programs read it as UTF-8, CRLF
 *   rows (RFC 4180), fields with commas, quotes or line breaks quoted.
 * - Formula neutralisation (CSV injection): a cell that starts with =, +, -, @, tab or carriage
 *   return gets a leading apostrophe, so a spreadsheet shows it as text instead of running it. A
 *   telephone number "+63 …" therefore reads "'+63 …": the price of never running a name.
 *   Inside a cell too: a spreadsheet whose list separator is `;` (most of Europe) splits
 *   "Ann;=cmd|…" into two cells, the second a formula. So a formula character right after a `;`,
 *   `,`, tab or line break (spaces and quotes between count as nothing) gets the apostrophe too.
 */

const FORMULA_CHARACTER = /[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/g;
const SEPARATORS = ";,\t\r\n";

/**
 * Whether a spreadsheet may start a new cell at `at`: a separator or line break comes before it,
 * with only blanks and quotes between. Looked for backwards from each formula character, which
 * stops at the one before: one pass over the value (a pattern starting at the separator moved
 * quadratically over a long run of tabs).
 */
const startsACell = (value: string, at: number): boolean => {
  for (let i = at - 1; i >= 0; i--) {
    const char = value.charAt(i);
    if (SEPARATORS.includes(char)) return true;
    if (char !== '"' && char !== "'" && char.trim() !== "") return false;
  }
  return false;
};

/** csv-stringify's options for every export (see above). */
const csvOptions = (headers: readonly string[]) => ({
  bom: true,
  record_delimiter: "windows" as const,
  // Explicit: with a record delimiter of our own, csv-stringify would not quote a lone \n or \r.
  quote_record_delimiter: true,
  escape_formulas: true,
  cast: { string: (value: string) => value.replace(FORMULA_CHARACTER, (char: string, at: number) => (startsACell(value, at) ? `'${char}` : char)) },
  header: true,
  columns: headers.map((header, index) => ({ key: String(index), header })),
});

/**
 * The CSV text of `records`, as a stream the endpoint layer pipes into the response. The source
 * is pulled only as fast as the response drains; destroying the text (the client went away, the
 * connection broke) destroys the source, which returns the generator and so stops its reads. A
 * failing read destroys the text with the error: the download breaks rather than ending short.
 */
export const csvStream = (headers: readonly string[], records: AsyncIterable<readonly string[]>, done: () => void): AsyncIterable<string> => {
  const text = stringify(csvOptions(headers));
  // `done` once the records' reads are over, not merely when the download closes (member-slots.ts).
  pipeline(streamInSlot(records, done, { highWaterMark: 64 }), text, () => {
    // Errors reach the response through `text`, which the pipeline has destroyed with them.
  });
  return text;
};

export const csvReply = (fileName: string, body: AsyncIterable<string>): Reply<FileAnswer> =>
  fileReply({ contentType: "text/csv; charset=utf-8", body, fileName });

/** Whether a role may read a list (its screen's rule), checked when the export starts and as it goes. */
type MayRead = (role: Role) => boolean;

/**
 * The records of a list export (a queue, a search, Order Processed), one per row, from its keyset
 * batches. Before each batch after the first, the member's session must still stand and their
 * role, as it is now, still read the list: a member signed out, deleted, re-roled or reset
 * mid-download gets no more rows (a large folder takes minutes). `index` counts the rows from 0
 * across batches.
 */
async function* admittedRecords<Row>(
  what: string,
  batches: AsyncIterable<readonly Row[]>,
  toRecord: (row: Row, index: number) => readonly string[],
  context: Pick<StaffRequest, "user" | "stillAdmitted">,
  mayRead: MayRead,
): AsyncGenerator<readonly string[]> {
  let index = 0;
  for await (const batch of batches) {
    if (index > 0) {
      const now = await context.stillAdmitted();
      if (now === undefined || !mayRead(now.type)) {
        console.warn(`Export of ${what} by staff member ${context.user.id} cut: the session ended`);
        throw new Error("the session ended during the export");
      }
    }
    for (const row of batch) yield toRecord(row, index++);
  }
}

const reportTable = (table: ReportExportRows): { headers: string[]; records: string[][] } => {
  switch (table.report) {
    case "country-orders":
      return {
        headers: COUNTRY_ORDER_COLUMNS.map((column) => column.header),
        records: table.rows.map((row, index) => COUNTRY_ORDER_COLUMNS.map((column) => column.cell(row, index))),
      };
    case "processed-by":
      return {
        headers: PROCESSED_BY_COLUMNS.map((column) => column.header),
        records: table.rows.map((row, index) => PROCESSED_BY_COLUMNS.map((column) => column.cell(row, index))),
      };
  }
};

const unknownFolder = (name: string) =>
  fail(404, `There is no order list named ${JSON.stringify(name.slice(0, 60))}. The lists are: ${QUEUE_KEYS.join(", ")}.`);

/** Order History is hidden from Telecallers (SHELL-1); the export follows the list's rule. */
const mayReadQueue =
  (key: QueueKey): MayRead =>
  (role) =>
    key !== "allOrder" || isAllowed(role, "orders.history");

/**
 * Who may export each report: whoever may read it on screen. Order Processed (ADMIN-7) and the
 * Processed By counts that sum it up (ADMIN-5) are Admin only; a Manager may export Country Orders.
 */
const REPORT_READERS: Record<ReportName, Action> = {
  "country-orders": "reports.read",
  "processed-by": "orders.processed",
  "order-processed": "orders.processed",
};

const mayReadOrderProcessed: MayRead = (role) => isAllowed(role, REPORT_READERS["order-processed"]);

/** Exports one member may have running at once in this process (more are refused: EXPORT_RUNNING). */
const EXPORTS_AT_ONCE = 2;

/**
 * One member's exports running at once, counted across every file they may download: the queues'
 * and reports' CSV, the dashboard's, the audit's logs.
 */
export const exportSlots = (): MemberSlots => memberSlots(EXPORTS_AT_ONCE);

export const exportHandlers = (deps: ApiDeps, slots: MemberSlots) => {
  /** Records the export, then streams it, within one of the member's slots. */
  const audited = async (
    context: Parameters<typeof recordExport>[1],
    details: Parameters<typeof recordExport>[2],
    fileName: string,
    headers: readonly string[],
    records: () => AsyncIterable<readonly string[]>,
  ): Promise<Reply<FileAnswer>> => {
    const free = slots.take(context.user.id);
    if (!free) return fail(429, EXPORT_RUNNING);
    try {
      const recorded = await recordExport(deps, context, details);
      if (!isAccountChanged(recorded)) {
        free();
        return recorded;
      }
      return csvReply(fileName, csvStream(headers, records(), free));
    } catch (error) {
      free();
      throw error;
    }
  };
  return {
    exportOrders: async (context) => {
      const { user, input } = context;
      const key = queueKeyOf(input.folderName);
      if (key === undefined) return unknownFolder(input.folderName);
      const mayRead = mayReadQueue(key);
      if (!mayRead(user.type)) return fail(403, FORBIDDEN);
      const searchVal = input.searchVal?.trim() ?? "";
      const today = utcDay(deps.now());
      const params: QueueExportParams = {
        folderName: key,
        searchVal,
        today,
        staffId: user.id,
        ...(key === "futureOrder" && input.processMonth !== undefined ? { processMonth: input.processMonth } : {}),
      };
      const rows = await countQueueExport(deps.readDb.query, params);
      const columns = queueColumnsOf(key);
      const headers = columns.map((column) => column.header);
      return audited(context, { what: searchVal === "" ? "queue" : "search", folderName: key, rows }, `${key}-${today}.csv`, headers, () =>
        admittedRecords(
          key,
          queueExportBatches(deps.readDb.query, params),
          (row) => columns.map((column) => queueCellText(column, row)),
          context,
          mayRead,
        ),
      );
    },
    exportReport: async (context) => {
      const { user, input } = context;
      // The schema has checked the name; this narrows its type.
      if (!isReportName(input.report)) return fail(400, "Please choose the report to export.");
      if (!isAllowed(user.type, REPORT_READERS[input.report])) return fail(403, FORBIDDEN);
      const today = utcDay(deps.now());
      const fromDate = dayOf(input.fromDate);
      const toDate = dayOf(input.toDate);
      if (input.report === "order-processed") {
        // One row per order ever processed: counted, then read in keyset batches like a queue.
        const range = { fromDate, toDate };
        const rows = await countProcessedOrderExport(deps.readDb.query, range);
        const headers = ORDER_PROCESSED_COLUMNS.map((column) => column.header);
        return audited(context, { what: "report", report: input.report, fromDate, toDate, rows }, `${input.report}-${today}.csv`, headers, () =>
          admittedRecords(
            input.report,
            processedOrderExportBatches(deps.readDb.query, range),
            (row, index) => ORDER_PROCESSED_COLUMNS.map((column) => column.cell(row, index)),
            context,
            mayReadOrderProcessed,
          ),
        );
      }
      const table = reportTable(await reportExportRows(deps.readDb.query, { report: input.report, fromDate, toDate, today }));
      return audited(
        context,
        { what: "report", report: input.report, fromDate, toDate, rows: table.records.length },
        `${input.report}-${today}.csv`,
        table.headers,
        () => Readable.from(table.records),
      );
    },
  } satisfies Partial<Handlers>;
};
