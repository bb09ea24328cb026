import * as Schema from "effect/Schema";
import { MAX_SEARCH_LENGTH } from "../queues.ts";
import { REPORT_NAMES, type ReportName } from "../queue-columns.ts";
import { maxCharacters, oneOf } from "@etd/events/checks";
import { requiredText } from "./fields.ts";
import { DateRangeRequest, fromNotAfterTo, OrdersListQuery } from "./queries.ts";

/*
 * The CSV exports' query strings (issue 16 D). They are GET links a browser follows to download,
 * so every parameter arrives as text, and they take what the screens' own calls take: a queue's
 * folder, search and month as search-order does, a report's range as the report calls do.
 */

/** `GET /admin/export-orders`: a folder (any name search-order accepts), optionally a search within it and a month of Future Orders. */
export const ExportOrdersQuery = Schema.Struct({
  folderName: requiredText("Please choose the folder to export.", 100),
  searchVal: Schema.optionalKey(
    Schema.String.check(maxCharacters(MAX_SEARCH_LENGTH, `The search must be at most ${MAX_SEARCH_LENGTH} characters.`)),
  ),
  processMonth: OrdersListQuery.fields.processMonth,
});

const CHOOSE_REPORT = `Please choose the report to export: ${REPORT_NAMES.slice(0, -1).join(", ")} or ${REPORT_NAMES.at(-1)!}.`;

export const isReportName = (name: string): name is ReportName => (REPORT_NAMES as readonly string[]).includes(name);

/**
 * `GET /admin/export-report`: which report's table (ADMIN-4 country-orders, ADMIN-5 processed-by,
 * ADMIN-7 order-processed, the Order Processed list: Admin only) and its range.
 */
export const ExportReportQuery = Schema.Struct({
  report: Schema.String.check(oneOf<string>(REPORT_NAMES, CHOOSE_REPORT)).pipe(
    Schema.annotateKey({ messageMissingKey: CHOOSE_REPORT }),
  ),
  ...DateRangeRequest.fields,
}).check(fromNotAfterTo);
