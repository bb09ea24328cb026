import { Result, Schema } from "effect";
import {
  folderCounts,
  futureMonths,
  ordersList,
  QUEUE_KEYS,
  queueKeyOf,
  searchOrders,
  type QueueKey,
} from "@etd/projections";
import type { ApiDeps } from "../api-deps.ts";
import { isAllowed } from "../auth/permissions.ts";
import { FORBIDDEN, type Endpoint, type RequestContext } from "../http/endpoint.ts";
import { requiredText, utcDay } from "../http/fields.ts";
import { decodeInput, fail, ok } from "../http/reply.ts";

/*
 * The queues (QUEUE-1..7), the folder counts (SHELL-5) and the future-orders calendar (ADMIN-3),
 * read from the queue projection. "Today" is the server's day in UTC, never the client's.
 *
 * Decisions where the specs are silent:
 * - My Orders is the signed-in member's, by id: `userName` is accepted and ignored, so nobody
 *   reads another member's queue by changing a query parameter, and a rename loses nothing.
 * - Order History (allOrder) needs orders.history, checked per request, in lists and in search
 *   alike: Telecallers get 403 for it and can read every other folder.
 * - A list answers `data` = the rows, as the client reads them, plus `total`, `page` and `limit`
 *   beside it, so pagination needs no second call. The total is the folder's count (QUEUE-7).
 * - The search window: `start` is the first row (from 0) and `end` the row after the last, so
 *   page 2 of 10 is {start: 10, end: 20}. A client that sends a page size as `end` instead
 *   ({start: 10, end: 10}) is understood too: an `end` not after `start` is read as a count.
 *   Without `end` a window is 10 rows; "All" is every row from `start`.
 * - Unknown query parameters are ignored (clients add cache busters); a known one must be valid.
 */

/** The largest page the lists offer (000 §9); "All" asks for every row. */
const MAX_PAGE_SIZE = 500;
const DEFAULT_PAGE_SIZE = 10;

const PAGE_MESSAGE = "Page must be a whole number of 1 or more.";
const LIMIT_MESSAGE = `Rows per page must be a whole number from 1 to ${MAX_PAGE_SIZE}, or All.`;
const MONTH_MESSAGE = "Process month must be a month like 2025-04.";

const pageField = Schema.String.check(Schema.makeFilter((s: string) => /^\s*[1-9]\d{0,8}\s*$/.test(s) || PAGE_MESSAGE));
const limitField = Schema.String.check(
  Schema.makeFilter(
    (s: string) => /^\s*all\s*$/i.test(s) || (/^\s*\d{1,9}\s*$/.test(s) && Number(s) >= 1 && Number(s) <= MAX_PAGE_SIZE) || LIMIT_MESSAGE,
  ),
);
const monthField = Schema.String.check(Schema.makeFilter((s: string) => /^\d{4}-(0[1-9]|1[0-2])$/.test(s) || MONTH_MESSAGE));

export const OrdersListQuery = Schema.Struct({
  page: Schema.optionalKey(pageField),
  limit: Schema.optionalKey(limitField),
  /** 001 §7 calls the page size perPage; `limit` wins when both are sent. */
  perPage: Schema.optionalKey(limitField),
  /** Future orders only: one month's table (ADMIN-3). */
  processMonth: Schema.optionalKey(monthField),
  /** Sent by the client on every list call; see above. */
  userName: Schema.optionalKey(Schema.String),
  delay: Schema.optionalKey(Schema.String),
});

const FolderCountQuery = Schema.Struct({ userName: Schema.optionalKey(Schema.String) });

export const FutureMonthsQuery = Schema.Struct({
  year: Schema.optionalKey(
    Schema.String.check(
      Schema.makeFilter((s: string) => (/^\d{4}$/.test(s) && Number(s) >= 2000 && Number(s) <= 2100) || "Year must be a year like 2025."),
    ),
  ),
});

const rowIndex = (label: string) =>
  Schema.Union([Schema.Int, Schema.String]).check(
    Schema.makeFilter(
      (v: number | string) => (/^\s*\d{1,9}\s*$/.test(String(v)) && Number(v) >= 0) || `${label} must be a whole number of 0 or more.`,
    ),
  );

export const SearchOrderRequest = Schema.Struct({
  folderName: requiredText("Please choose the folder to search.", 100),
  /** Numbers too: a phone number or an order id typed into the box may arrive as one. */
  searchVal: Schema.optionalKey(
    Schema.Union([
      Schema.String.check(Schema.isMaxLength(200, { message: "The search must be at most 200 characters." })),
      Schema.Finite,
      Schema.Null,
    ]),
  ),
  start: Schema.optionalKey(rowIndex("Start")),
  end: Schema.optionalKey(Schema.Union([rowIndex("End"), Schema.Literals(["All", "all"])])),
  processMonth: Schema.optionalKey(monthField),
  userName: Schema.optionalKey(Schema.String),
});

/** Only the parameters a call reads (see above). */
const pick = (source: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));

const unknownFolder = (name: string) =>
  fail(404, `There is no order list named ${JSON.stringify(name.slice(0, 60))}. The lists are: ${QUEUE_KEYS.join(", ")}.`);

/** Order History is hidden from Telecallers (SHELL-1); every other folder is open to every role. */
const mayRead = (context: RequestContext, key: QueueKey) => key !== "allOrder" || isAllowed(context.user!.type, "orders.history");

const pageSizeOf = (value: string | undefined): number | "All" =>
  value === undefined ? DEFAULT_PAGE_SIZE : /all/i.test(value) ? "All" : Number(value);

/** The rows a search answers (see above), as the first row and the row after the last. */
export const searchWindow = (start: number, end: number | "All" | undefined): { start: number; end: number | "All" } => {
  if (end === undefined) return { start, end: start + DEFAULT_PAGE_SIZE };
  if (end === "All" || end > start) return { start, end };
  return { start, end: start + end };
};

const viewerOf = (deps: ApiDeps, context: RequestContext) => ({ today: utcDay(deps.now()), staffId: context.user!.id });

export const queueQueryEndpoints = (deps: ApiDeps): Endpoint[] => [
  {
    method: "get",
    path: "/admin/get-all-folder-count",
    guard: "orders.read",
    reads: ["queue"],
    summary: "The counts object of every folder; My Orders counts the signed-in member's orders (SHELL-5)",
    handle: async (context) => {
      const input = decodeInput(FolderCountQuery, pick(context.req.query as Record<string, unknown>, ["userName"]));
      if (Result.isFailure(input)) return input.failure;
      return ok("Folder counts loaded.", await folderCounts(deps.readDb.query, viewerOf(deps, context)));
    },
  },
  {
    method: "get",
    path: "/admin/get-orders-list/:orderName",
    guard: "orders.read",
    reads: ["queue"],
    summary: "One page of a queue, newest first, with the folder's total; allOrder needs Order History (QUEUE-5, QUEUE-7)",
    handle: async (context) => {
      const name = String(context.req.params.orderName ?? "");
      const key = queueKeyOf(name);
      if (key === undefined) return unknownFolder(name);
      if (!mayRead(context, key)) return fail(403, FORBIDDEN);
      const input = decodeInput(
        OrdersListQuery,
        pick(context.req.query as Record<string, unknown>, ["page", "limit", "perPage", "processMonth", "userName", "delay"]),
      );
      if (Result.isFailure(input)) return input.failure;
      const { page, limit, perPage, processMonth } = input.success;
      const result = await ordersList(deps.readDb.query, {
        queueKey: key,
        page: page === undefined ? 1 : Number(page),
        limit: pageSizeOf(limit ?? perPage),
        ...viewerOf(deps, context),
        ...(key === "futureOrder" && processMonth !== undefined ? { processMonth } : {}),
      });
      return ok("Orders loaded.", result.rows, { total: result.total, page: result.page, limit: result.limit });
    },
  },
  {
    method: "post",
    readOnly: true,
    path: "/admin/search-order",
    guard: "orders.read",
    reads: ["queue"],
    summary: "Search one folder by order id, name, e-mail or phone, any case, any part (QUEUE-5)",
    body: SearchOrderRequest,
    handle: async (context) => {
      const input = decodeInput(SearchOrderRequest, context.req.body);
      if (Result.isFailure(input)) return input.failure;
      const body = input.success;
      const key = queueKeyOf(body.folderName);
      if (key === undefined) return unknownFolder(body.folderName);
      if (!mayRead(context, key)) return fail(403, FORBIDDEN);
      const window = searchWindow(
        body.start === undefined ? 0 : Number(body.start),
        body.end === undefined ? undefined : /all/i.test(String(body.end)) ? "All" : Number(body.end),
      );
      const result = await searchOrders(deps.readDb.query, {
        folderName: key,
        searchVal: body.searchVal === undefined || body.searchVal === null ? "" : String(body.searchVal),
        ...window,
        ...viewerOf(deps, context),
        ...(key === "futureOrder" && body.processMonth !== undefined ? { processMonth: body.processMonth } : {}),
      });
      return ok("Orders loaded.", result.rows, { total: result.total, ...window });
    },
  },
  {
    method: "get",
    path: "/admin/get-future-months",
    guard: "orders.read",
    reads: ["queue"],
    summary: "The future-orders calendar: twelve month tiles, January to December, with counts by process month (ADMIN-3)",
    handle: async (context) => {
      const input = decodeInput(FutureMonthsQuery, pick(context.req.query as Record<string, unknown>, ["year"]));
      if (Result.isFailure(input)) return input.failure;
      const year = input.success.year === undefined ? undefined : Number(input.success.year);
      return ok("Future months loaded.", await futureMonths(deps.readDb.query, { today: utcDay(deps.now()), year }));
    },
  },
];
