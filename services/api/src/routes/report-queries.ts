import { Result, Schema } from "effect";
import { IsoDate } from "@etd/events";
import { countryOrders, processedBy, processedOrders } from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import type { Endpoint } from "../http/endpoint.ts";
import { utcDay } from "../http/fields.ts";
import { decodeInput, ok } from "../http/reply.ts";

/*
 * The reports (ADMIN-4, ADMIN-5) and the Order Processed list (ADMIN-7), read from the reports
 * projection. Dates are UTC calendar days, YYYY-MM-DD, both ends included; an empty, null or
 * missing date leaves that side of the range open (001 §7: the processed-by dates "may be empty").
 * The Order Processed list has no call in the specs; its path and paging are ours.
 */

const isDay = Schema.is(IsoDate);

/** "" and null mean "no date", as the client's empty date inputs send them. */
const dayOf = (value: string | null | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

const dayField = (label: string) =>
  Schema.optionalKey(
    Schema.Union([Schema.String, Schema.Null]).check(
      Schema.makeFilter((value: string | null) => dayOf(value) === undefined || isDay(dayOf(value)) || `${label} must be a date like 2025-03-14.`),
    ),
  );

const dateRangeFields = { fromDate: dayField("From date"), toDate: dayField("To date") };

/** From after To would silently give nothing; say so instead. */
const fromNotAfterTo = Schema.makeFilter((range: { readonly fromDate?: string | null; readonly toDate?: string | null }) => {
  const from = dayOf(range.fromDate);
  const to = dayOf(range.toDate);
  return from === undefined || to === undefined || from <= to || { path: ["fromDate"], issue: "From date must not be after To date." };
});

export const DateRangeRequest = Schema.Struct(dateRangeFields).check(fromNotAfterTo);

/** The largest page the lists offer (000 §9); "All" asks for every row. */
const MAX_PAGE_SIZE = 500;

export const ProcessedOrdersQuery = Schema.Struct({
  page: Schema.optionalKey(
    Schema.String.check(Schema.makeFilter((s: string) => /^\s*[1-9]\d{0,8}\s*$/.test(s) || "Page must be a whole number of 1 or more.")),
  ),
  limit: Schema.optionalKey(
    Schema.String.check(
      Schema.makeFilter(
        (s: string) =>
          /^\s*all\s*$/i.test(s) ||
          (/^\s*\d{1,9}\s*$/.test(s) && Number(s) >= 1 && Number(s) <= MAX_PAGE_SIZE) ||
          `Rows per page must be a whole number from 1 to ${MAX_PAGE_SIZE}, or All.`,
      ),
    ),
  ),
  ...dateRangeFields,
}).check(fromNotAfterTo);

/** Only the parameters this list reads: clients add others (delay, userName) to every list call. */
const pick = (source: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));

export const reportQueryEndpoints = (deps: ApiDeps): Endpoint[] => [
  {
    method: "post",
    readOnly: true,
    path: "/admin/get-country-order-list",
    guard: "reports.read",
    reads: ["reports"],
    summary: "Orders per country created between two days, with standard, priority and future counts (ADMIN-4)",
    body: DateRangeRequest,
    handle: async ({ req }) => {
      const input = decodeInput(DateRangeRequest, req.body);
      if (Result.isFailure(input)) return input.failure;
      const rows = await countryOrders(deps.readDb.query, {
        fromDate: dayOf(input.success.fromDate),
        toDate: dayOf(input.success.toDate),
        today: utcDay(deps.now()),
      });
      return ok("Country orders loaded.", rows);
    },
  },
  {
    method: "post",
    readOnly: true,
    path: "/admin/get-processed-by-count",
    guard: "reports.read",
    reads: ["reports"],
    summary: "Orders per staff member who uploaded their document last, between two days (ADMIN-5)",
    body: DateRangeRequest,
    handle: async ({ req }) => {
      const input = decodeInput(DateRangeRequest, req.body);
      if (Result.isFailure(input)) return input.failure;
      const rows = await processedBy(deps.readDb.query, { fromDate: dayOf(input.success.fromDate), toDate: dayOf(input.success.toDate) });
      // 001 §8: the client shows this message as a toast on every load.
      return ok("Processed orders loaded.", rows);
    },
  },
  {
    method: "get",
    path: "/admin/get-processed-orders",
    guard: "orders.processed",
    reads: ["reports"],
    summary: "Order Processed: orders with a document, latest upload first, who processed them and when (ADMIN-7)",
    handle: async ({ req }) => {
      const input = decodeInput(ProcessedOrdersQuery, pick(req.query as Record<string, unknown>, ["page", "limit", "fromDate", "toDate"]));
      if (Result.isFailure(input)) return input.failure;
      const { page, limit, fromDate, toDate } = input.success;
      const result = await processedOrders(deps.readDb.query, {
        page: page === undefined ? 1 : Number(page),
        limit: limit === undefined ? 10 : /all/i.test(limit) ? "All" : Number(limit),
        fromDate: dayOf(fromDate),
        toDate: dayOf(toDate),
      });
      return ok("Processed orders loaded.", {
        list: result.rows,
        total: result.total,
        page: result.page,
        limit: result.limit,
      });
    },
  },
];
