import * as Schema from "effect/Schema";
import { IsoDate } from "@etd/events";
import { MAX_PAGE_SIZE, MAX_SEARCH_LENGTH, QUEUE_KEYS } from "../queues.ts";
import { DUE_FILTERS, QUEUE_SORTS } from "../queue-columns.ts";
import { MAX_NAME_LENGTH } from "../rules.ts";
import { anyCase, blankOr, DAY_PATTERN, matches, maxCharacters, oneOf, padded, stringOrInteger } from "@etd/events/checks";
import { orderIdField, requiredText } from "./fields.ts";

/*
 * The reads' parameters: queues (QUEUE-1..7), the future-orders calendar (ADMIN-3), reports
 * (ADMIN-4, ADMIN-5, ADMIN-7), order details and the audit (CARD-4). Query strings arrive as
 * strings; numbers are checked as digits and read by the handlers.
 */

const PAGE_MESSAGE = "Page must be a whole number of 1 or more.";
const LIMIT_MESSAGE = `Rows per page must be a whole number from 1 to ${MAX_PAGE_SIZE}, or All.`;
const MONTH_MESSAGE = "Process month must be a month like 2025-04.";

const pageField = Schema.String.check(matches(padded("[1-9][0-9]{0,8}"), PAGE_MESSAGE));

/** "All", or at most nine digits that make 1 to 500 (leading zeros included): the page sizes, spelled out. */
const PAGE_SIZES = `(?:${anyCase("all")}|0{0,8}[1-9]|0{0,7}[1-9][0-9]|0{0,6}[1-4][0-9]{2}|0{0,6}500)`;
if (MAX_PAGE_SIZE !== 500) throw new Error("PAGE_SIZES spells the page sizes up to 500: spell them up to MAX_PAGE_SIZE");
const limitField = Schema.String.check(matches(padded(PAGE_SIZES), LIMIT_MESSAGE));
const monthField = Schema.String.check(matches(/^[0-9]{4}-(?:0[1-9]|1[0-2])$/, MONTH_MESSAGE));

/** Sent by the client on every list call and ignored (My Orders is the caller's by id); bounded like any text. */
const userNameField = Schema.String.check(maxCharacters(MAX_NAME_LENGTH, `The user name must be at most ${MAX_NAME_LENGTH} characters.`));

/** A checked `limit`: a number of rows, or "All"; `fallback` when absent. */
export const pageSizeOf = (value: string | undefined, fallback: number): number | "All" =>
  value === undefined ? fallback : /all/i.test(value) ? "All" : Number(value);

/**
 * Issue 27: optional, so a client that sends neither gets the lists as before. `due`: only the
 * overdue orders, or those due within the hour (the total counts them); `sort=due`: the most
 * urgent first. Exact words: a literal is its own bound.
 */
const dueFilterField = Schema.String.check(oneOf<string>(DUE_FILTERS, `Due must be one of: ${DUE_FILTERS.join(", ")}.`));
const sortField = Schema.String.check(oneOf<string>(QUEUE_SORTS, `Sort must be one of: ${QUEUE_SORTS.join(", ")}.`));
const dueFields = { due: Schema.optionalKey(dueFilterField), sort: Schema.optionalKey(sortField) };

export const OrdersListQuery = Schema.Struct({
  page: Schema.optionalKey(pageField),
  limit: Schema.optionalKey(limitField),
  /** 001 §7 calls the page size perPage; `limit` wins when both are sent. */
  perPage: Schema.optionalKey(limitField),
  /** Future orders only: one month's table (ADMIN-3). */
  processMonth: Schema.optionalKey(monthField),
  /** Sent by the client on every list call; My Orders is the signed-in member's whatever it says. */
  userName: Schema.optionalKey(userNameField),
  delay: Schema.optionalKey(Schema.String),
  ...dueFields,
});

export const FolderCountQuery = Schema.Struct({ userName: Schema.optionalKey(userNameField) });

export const FutureMonthsQuery = Schema.Struct({
  year: Schema.optionalKey(
    Schema.String.check(matches(/^(?:20[0-9]{2}|2100)$/, "Year must be a year like 2025.")),
  ),
});

const rowIndex = (label: string) =>
  Schema.Union([Schema.Int, Schema.String]).check(
    stringOrInteger(padded("[0-9]{1,9}"), { minimum: 0, maximum: 999_999_999 }, `${label} must be a whole number of 0 or more.`),
  );

/**
 * QUEUE-2, QUEUE-5. The search window: `start` is the first row (from 0) and `end` the row after
 * the last; an `end` not after `start` is read as a count (a client that sends a page size).
 */
export const SearchOrderRequest = Schema.Struct({
  folderName: requiredText("Please choose the folder to search.", 100),
  /** Numbers too: a phone number or an order id typed into the box may arrive as one. */
  searchVal: Schema.optionalKey(
    Schema.Union([
      Schema.String.check(maxCharacters(MAX_SEARCH_LENGTH, `The search must be at most ${MAX_SEARCH_LENGTH} characters.`)),
      Schema.Finite,
      Schema.Null,
    ]),
  ),
  start: Schema.optionalKey(rowIndex("Start")),
  end: Schema.optionalKey(Schema.Union([rowIndex("End"), Schema.Literals(["All", "all"])])),
  processMonth: Schema.optionalKey(monthField),
  userName: Schema.optionalKey(userNameField),
  ...dueFields,
});

/** Select all across pages (issue 16): the limit is plain data, declared with the queues. */
export { MAX_SELECTED_ORDERS } from "../queues.ts";

/** Every order of one folder, or of its search, as the queue shows them (the search's own fields, no window). */
export const SelectAllOrdersRequest = Schema.Struct({
  folderName: SearchOrderRequest.fields.folderName,
  searchVal: SearchOrderRequest.fields.searchVal,
  processMonth: Schema.optionalKey(monthField),
  /** The list's due filter (issue 27): select all means the orders the filtered list shows. */
  due: dueFields.due,
});

const isDay = Schema.is(IsoDate);

/** "" and null mean "no date", as the client's empty date inputs send them. */
export const dayOf = (value: string | null | undefined): string | undefined => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
};

/** A day, or blank: the document states the shape, the decoder checks the calendar too. */
const DAY_SHAPE = blankOr(DAY_PATTERN);

const dayField = (label: string) =>
  Schema.optionalKey(
    Schema.Union([Schema.String, Schema.Null]).check(
      Schema.makeFilter((value: string | null) => dayOf(value) === undefined || isDay(dayOf(value)) || `${label} must be a date like 2025-03-14.`, {
        toJsonSchema: () => ({ pattern: DAY_SHAPE.source }),
      }),
    ),
  );

const dateRangeFields = { fromDate: dayField("From date"), toDate: dayField("To date") };

/** From after To would silently give nothing; say so instead. */
export const fromNotAfterTo = Schema.makeFilter((range: { readonly fromDate?: string | null; readonly toDate?: string | null }) => {
  const from = dayOf(range.fromDate);
  const to = dayOf(range.toDate);
  return from === undefined || to === undefined || from <= to || { path: ["fromDate"], issue: "From date must not be after To date." };
});

/** ADMIN-4, ADMIN-5: UTC calendar days, both ends included; an empty, null or missing date leaves that side open. */
export const DateRangeRequest = Schema.Struct(dateRangeFields).check(fromNotAfterTo);

/** ADMIN-7: the Order Processed list's paging and range (ours: the specs show no call). */
export const ProcessedOrdersQuery = Schema.Struct({
  page: Schema.optionalKey(pageField),
  limit: Schema.optionalKey(limitField),
  ...dateRangeFields,
}).check(fromNotAfterTo);

/** `:orderId` in a path. */
export const OrderIdParam = Schema.Struct({ orderId: orderIdField("Please enter your order id.") });

/*
 * Path parameters that name something the handler looks up, and answer 404 when it names nothing:
 * any text is a well-formed request (issue 26: every path parameter is declared).
 */

/** A folder in a path: its queue key or any of its names, in any case and spacing (queueKeyOf). */
const folderName = Schema.String.annotate({ description: "A queue key, or any of the folder's names in any case and spacing", examples: [...QUEUE_KEYS] });

/** `/admin/get-orders-list/:orderName` */
export const OrderListParam = Schema.Struct({ orderName: folderName });

/** `/audit/queues/:folder` */
export const AuditFolderParam = Schema.Struct({ folder: folderName });

/** `:staffId` in an audit path: a member's id, removed members' included. */
export const StaffIdParam = Schema.Struct({ staffId: Schema.String });

/** `/admin/team-member-info/:id` */
export const TeamMemberIdParam = Schema.Struct({ id: Schema.String });

/** `:orderId` in an audit path, which reads the log: an id that names no order's stream answers 404, whatever its form. */
export const AuditOrderIdParam = Schema.Struct({ orderId: Schema.String });

const digits = (label: string) => Schema.optionalKey(Schema.String.check(matches(/^[0-9]{1,9}$/, `${label} must be a whole number.`)));

/** An audit timeline's page: `limit` lines after stream position `after`. */
export const TimelineQuery = Schema.Struct({ limit: digits("limit"), after: digits("after") });

/**
 * An ISO 8601 date or date and time with a four-digit year: the moments are compared with the
 * events' ISO timestamps, so "1" (which Date.parse reads as 2001) or a six-digit year would
 * silently mean something else. Spelled so that every moment it takes is one Date.parse reads:
 * year 0001 to 9999 (year 0 parses in JavaScript but not in PostgreSQL), months 01-12, days
 * 01-31 (Date.parse rolls 30 February over to March), 00:00 to 23:59:59 or 24:00, offsets to ±23:59.
 */
const MOMENT = [
  "(?:[0-9]{3}[1-9]|[0-9]{2}[1-9][0-9]|[0-9][1-9][0-9]{2}|[1-9][0-9]{3})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])",
  "(?:[T ]",
  "(?:(?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\\.[0-9]{1,9})?)?|24:00(?::00(?:\\.0{1,9})?)?)",
  "(?:Z|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9])?)?",
].join("");

/**
 * A checked moment as milliseconds. A time without a zone is read as UTC, as every stored time
 * is, never in the server's own zone; a bare date is its UTC midnight.
 */
export const momentMs = (text: string): number => {
  const trimmed = text.trim().replace(" ", "T");
  return Date.parse(/T/.test(trimmed) && !/(Z|[+-]\d{2}:?\d{2})$/.test(trimmed) ? `${trimmed}Z` : trimmed);
};

const MOMENT_MESSAGE = "Give the moment as an ISO date and time, e.g. 2025-03-14T10:04:12Z.";
/** The instants a moment may name: years 0001 to 9999 in UTC, which both JavaScript and PostgreSQL read as the same day. */
const FIRST_MOMENT = Date.parse("0001-01-01T00:00:00Z");
const LAST_MOMENT = Date.parse("9999-12-31T23:59:59.999Z");

/**
 * A moment the pattern takes, whose offset keeps it within years 0001 to 9999 in UTC: the pattern
 * allows "0001-01-01T00:00+01:00", which is still year 0 in UTC (1 BC to PostgreSQL), and
 * "9999-12-31T23:00-02:00", which is year 10000. A range JSON Schema cannot state (ADR 0031).
 */
const Moment = Schema.String.check(
  matches(padded(MOMENT), MOMENT_MESSAGE),
  Schema.makeFilter((text: string) => {
    const at = momentMs(text);
    // Not a moment at all: the pattern's message says so once.
    return Number.isNaN(at) || (at >= FIRST_MOMENT && at <= LAST_MOMENT) || MOMENT_MESSAGE;
  }),
);

/** The order as it stood at `at`. */
export const AsOfQuery = Schema.Struct({ at: Moment.pipe(Schema.annotateKey({ messageMissingKey: "Give the moment with ?at=." })) });

/** An order's service-level clock (issue 27): now, or as it stood at `asOf`, a moment as the audit's as-of takes it. */
export const ServiceClockQuery = Schema.Struct({ asOf: Schema.optionalKey(Moment) });

/** What changed between `from` and `to`. */
export const DiffQuery = Schema.Struct({
  from: Moment.pipe(Schema.annotateKey({ messageMissingKey: "Give both moments with ?from= and ?to=." })),
  to: Moment.pipe(Schema.annotateKey({ messageMissingKey: "Give both moments with ?from= and ?to=." })),
});

/** A folder as it stood at `at` (a queue key or any of its names), one page of it; `staffId` for My Orders. */
export const QueueAtQuery = Schema.Struct({
  at: Moment.pipe(Schema.annotateKey({ messageMissingKey: "Give the moment with ?at=." })),
  page: Schema.optionalKey(pageField),
  staffId: Schema.optionalKey(Schema.String.check(matches(/^[A-Za-z0-9_-]{1,64}$/, "Give a staff id."))),
});

/**
 * A time range of the log, both ends included: a staff member's activity, or an export. Unlike a
 * diff's two moments a range has a direction, and a reversed one would silently hold nothing.
 */
export const AuditRangeQuery = DiffQuery.check(
  Schema.makeFilter((range: { readonly from: string; readonly to: string }) =>
    momentMs(range.from) <= momentMs(range.to) || { path: ["from"], issue: "The start of the range must not be after its end." },
  ),
);
