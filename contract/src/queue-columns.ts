import type { CountryOrdersRow, ProcessedByRow, ProcessedOrderRow } from "./answers.ts";
import { durationText, formatDateTime, formatDay, formatProcessMonth, fullName, processingModeLabel, type DateStyle } from "./display-format.ts";
import type { ClockState } from "@etd/events";
import type { QueueKey } from "./queues.ts";
import { ORDER_STATUS_LABELS, type LandingDomain, type OrderStatus, type ProcessingMode } from "./vocabulary.ts";

/*
 * An order as a queue list shows it, and the columns the queue and report screens show (QUEUE-3,
 * 001 §2, ADMIN-3..5), as data: one table of the list row's fields, from which the row's type, its
 * display values, the web app's tables and the API's CSV export (issue 16 D) all come, so an export
 * always has the columns on screen. The queue read model's table (projections' queue-table.ts)
 * names, for each column the lists carry, the list field it fills; its type checks that every field
 * below is filled. The Action column is the web's own (it holds buttons, not data).
 */

/** What a list field holds, as the wire sends it. */
interface ListValues {
  readonly text: string;
  readonly optionalText: string | null;
  readonly status: OrderStatus;
  readonly mode: ProcessingMode;
  readonly domain: LandingDomain;
  readonly clock: ClockState;
  readonly optionalNumber: number | null;
}

/**
 * 000 §3's "Order (list item)": the raw values, named as the wire names them.
 * - phone_number: with its country code ("+63 9171234567"), as the chat link needs it (QUEUE-13)
 * - created_at: ISO 8601 UTC, to the millisecond
 * - date_of_travel: shown as Arrival Date; refund_date and processing_date: YYYY-MM-DD
 * - process_month: "2025-04", the month a future order is grouped under
 * - assign_to: the assignee's name, "" when unassigned; assign_to_id: their staff id
 * - due_at, clock_state, time_left_ms (issue 27, ADR 0036): the service-level clock. due_at is
 *   when a running clock reaches its allowance (ISO 8601 UTC, to the millisecond; earlier than now
 *   once overdue), null while it is paused, stopped or met; time_left_ms is a paused clock's time
 *   left in milliseconds (negative once over), null otherwise: a running clock's is due_at − now.
 */
export const QUEUE_LIST_FIELDS = {
  order_id: "text",
  process_status: "status",
  first_name: "optionalText",
  middle_name: "optionalText",
  last_name: "optionalText",
  email: "optionalText",
  phone_number: "optionalText",
  created_at: "text",
  date_of_departure: "optionalText",
  date_of_travel: "optionalText",
  refund_date: "optionalText",
  processing_date: "text",
  process_month: "text",
  assign_to: "text",
  assign_to_id: "optionalText",
  processing_mode: "mode",
  landing_domain: "domain",
  citizenship: "optionalText",
  due_at: "optionalText",
  clock_state: "clock",
  time_left_ms: "optionalNumber",
} as const satisfies Record<string, keyof ListValues>;

export type QueueListField = keyof typeof QUEUE_LIST_FIELDS;

/** The list item's raw values. */
export type QueueListFields = { readonly [K in QueueListField]: ListValues[(typeof QUEUE_LIST_FIELDS)[K]] };

// ---------------------------------------------------------------------------------------------
// Due (issue 27, ADR 0036): the service-level clock in the queues

/** "Due within the hour": a running clock whose due moment is after now and at most this far ahead. */
export const DUE_SOON_MS = 60 * 60_000;

/** The lists' due filters (`due=` on the list, the search and select all): overdue, or due within the hour (not yet overdue). */
export const DUE_FILTERS = ["overdue", "within-hour"] as const;
export type DueFilter = (typeof DUE_FILTERS)[number];

/** The lists' orders (`sort=`): newest first when absent; `due`: overdue first, then earliest due, Priority before Standard at the same moment, clocks not running last. */
export const QUEUE_SORTS = ["due"] as const;
export type QueueSort = (typeof QUEUE_SORTS)[number];

/**
 * The folders whose screens show the Due column and its filter: every folder whose orders' clocks
 * run (ADR 0036), so together they list every running clock the dashboard counts (issue 27 asks
 * for New, Priority, Pending and My Orders; the clock runs in Contact Customer and Customer Called too).
 */
export const DUE_FOLDERS: readonly QueueKey[] = ["newOrder", "priorityOrder", "pendingOrder", "contactCustomerOrder", "customerCalledOrder", "myOrder"];

/** How urgent an order's clock is now: the Due cell's colour (its text says the same in words). */
export type DueUrgency = "overdue" | "soon" | "later" | ClockState;

type DueFacts = Pick<QueueListFields, "due_at" | "clock_state" | "time_left_ms">;

/** The clock's urgency at `nowMs`. */
export const dueUrgency = (row: DueFacts, nowMs: number): DueUrgency => {
  if (row.clock_state !== "running" || row.due_at === null) return row.clock_state;
  const left = Date.parse(row.due_at) - nowMs;
  return left <= 0 ? "overdue" : left <= DUE_SOON_MS ? "soon" : "later";
};

/**
 * The Due cell at `nowMs`: "due in 2 h 10 min", "overdue 35 min", "paused, 1 h 20 min left" (or
 * "paused, overdue 5 min"), "stopped", "met". Only a running clock's text depends on now.
 */
export const dueText = (row: DueFacts, nowMs: number): string => {
  switch (row.clock_state) {
    case "met":
    case "stopped":
      return row.clock_state;
    case "paused": {
      const left = row.time_left_ms ?? 0;
      return left > 0 ? `paused, ${durationText(left)} left` : `paused, overdue ${durationText(left)}`;
    }
    case "running": {
      if (row.due_at === null) return "";
      const left = Date.parse(row.due_at) - nowMs;
      return left > 0 ? `due in ${durationText(left)}` : `overdue ${durationText(left)}`;
    }
  }
};

/** The date styles of one list (QUEUE-6): its dates, and its Refund Date. */
interface ListStyles {
  readonly dates: DateStyle;
  readonly refundDate: DateStyle;
}

const day = (value: string | null, style: DateStyle) => (value === null ? null : formatDay(value, style));

/**
 * 001 §3's list row: the display values, each computed from the raw values in a list's styles, so
 * the screen and the export read the same text.
 */
const QUEUE_DISPLAY = {
  id: (row: QueueListFields) => row.order_id,
  name: (row: QueueListFields) => fullName(row.first_name, row.middle_name, row.last_name),
  telephone: (row: QueueListFields) => row.phone_number ?? "",
  /** As staff read it ("Awaiting Customer"). */
  status: (row: QueueListFields): string => ORDER_STATUS_LABELS[row.process_status],
  /** Date & Time: DD/MM/YYYY HH:mm:ss (MM-DD-YYYY HH:mm:ss on Priority), UTC. */
  date: (row: QueueListFields, styles: ListStyles) => formatDateTime(row.created_at, styles.dates),
  arrivalDate: (row: QueueListFields, styles: ListStyles) => day(row.date_of_travel, styles.dates),
  departureDate: (row: QueueListFields, styles: ListStyles) => day(row.date_of_departure, styles.dates),
  /** DD-MM-YYYY on the refund list. */
  refundDate: (row: QueueListFields, styles: ListStyles) => day(row.refund_date, styles.refundDate),
  /** DD/MM/YYYY (UTC) on every list. */
  processingDate: (row: QueueListFields) => formatDay(row.processing_date),
  /** "April 2025". */
  processMonth: (row: QueueListFields) => formatProcessMonth(row.process_month),
  /**
   * The Due column as text that stays true (the CSV export's cell): a running clock's due moment
   * in the list's date style, "paused, 1 h 20 min left", "stopped" or "met". The screen shows the
   * same fact counted from now (`dueText`), as time passes.
   */
  due: (row: QueueListFields, styles: ListStyles): string =>
    row.clock_state === "running" && row.due_at !== null ? formatDateTime(row.due_at, styles.dates) : dueText(row, Number.NaN),
};

/** An order as a queue list shows it: 000 §3's list item, then 001 §3's display values for that list. */
export type QueueListRow = QueueListFields & { readonly [K in keyof typeof QUEUE_DISPLAY]: ReturnType<(typeof QUEUE_DISPLAY)[K]> };

/** The date styles of a list (QUEUE-6): MM-DD-YYYY on Priority, DD/MM/YYYY elsewhere; the refund list's Refund Date DD-MM-YYYY. */
const listStyles = (key: QueueKey): ListStyles => {
  const dates: DateStyle = key === "priorityOrder" ? "MM-DD-YYYY" : "DD/MM/YYYY";
  return { dates, refundDate: key === "refundOrder" ? "DD-MM-YYYY" : dates };
};

/**
 * The list row of folder `key` from the raw values the read model holds (a field it has no value
 * for is null, or "" where the wire sends text), in the table's order.
 */
export const queueListRow = (key: QueueKey) => {
  const styles = listStyles(key);
  return (values: Readonly<Record<QueueListField, unknown>>): QueueListRow => {
    const fields = Object.fromEntries(
      Object.entries(QUEUE_LIST_FIELDS).map(([name, kind]) => {
        const value = values[name as QueueListField];
        if (kind === "optionalNumber") return [name, typeof value === "number" ? value : null];
        return [name, typeof value === "string" ? value : kind === "optionalText" ? null : ""];
      }),
    ) as QueueListFields;
    const display = Object.fromEntries(Object.entries(QUEUE_DISPLAY).map(([name, show]) => [name, show(fields, styles)]));
    return { ...fields, ...display } as QueueListRow;
  };
};

/** The column sets of QUEUE-3 and 001 §2 (which folder shows which: QUEUE_COLUMN_SET_OF). */
export type ColumnSet = "standard" | "intake" | "noTelephone" | "refund" | "assigned";

export type QueueColumnKey =
  | "orderId"
  | "name"
  | "email"
  | "telephone"
  | "arrivalDate"
  | "date"
  | "departureDate"
  | "refundDate"
  | "processingDate"
  | "processMonth"
  | "due"
  | "status";

export interface QueueColumnDefinition {
  readonly key: QueueColumnKey;
  readonly header: string;
  /** The list row's field the cell shows (display values, already formatted by the server). */
  readonly field: keyof QueueListRow;
}

const column = (key: QueueColumnKey, header: string, field: keyof QueueListRow): QueueColumnDefinition => ({ key, header, field });

/** Every queue column with its usual header; "Date and Time" is My Orders' wording (001 §2). */
export const QUEUE_COLUMNS = {
  orderId: column("orderId", "Order Id", "id"),
  name: column("name", "Name", "name"),
  email: column("email", "Email", "email"),
  telephone: column("telephone", "Telephone", "telephone"),
  arrivalDate: column("arrivalDate", "Arrival Date", "arrivalDate"),
  date: column("date", "Date & Time", "date"),
  dateAndTime: column("date", "Date and Time", "date"),
  departureDate: column("departureDate", "Departure Date", "departureDate"),
  refundDate: column("refundDate", "Refund Date", "refundDate"),
  due: column("due", "Due", "due"),
  status: column("status", "Status", "status"),
} as const satisfies Record<string, QueueColumnDefinition>;

const C = QUEUE_COLUMNS;

/**
 * The columns of each set, in screen order, Action left out:
 * - standard: Order Id, Name, Email, Telephone, Arrival Date, Date & Time, Status
 * - intake (New, Priority): the same with Departure Date after Date & Time
 * - noTelephone (Contact Customer): standard without Telephone
 * - refund: Order Id, Email, Telephone, Date & Time, Refund Date, Status
 * - assigned (My Order, Chargeback list, 001 §2): Order Id, Name, Email, Telephone, Date and Time, Departure Date, Status
 */
export const QUEUE_COLUMN_SETS: { readonly [S in ColumnSet]: readonly QueueColumnDefinition[] } = {
  standard: [C.orderId, C.name, C.email, C.telephone, C.arrivalDate, C.date, C.status],
  intake: [C.orderId, C.name, C.email, C.telephone, C.arrivalDate, C.date, C.departureDate, C.status],
  noTelephone: [C.orderId, C.name, C.email, C.arrivalDate, C.date, C.status],
  refund: [C.orderId, C.email, C.telephone, C.date, C.refundDate, C.status],
  assigned: [C.orderId, C.name, C.email, C.telephone, C.dateAndTime, C.departureDate, C.status],
};

/** The column set each queue screen shows (Future Orders has its own month table, below). */
export const QUEUE_COLUMN_SET_OF: { readonly [K in Exclude<QueueKey, "futureOrder">]: ColumnSet } = {
  newOrder: "intake",
  priorityOrder: "intake",
  pendingOrder: "standard",
  completedOrder: "standard",
  deletedOrder: "standard",
  awaitingOrder: "standard",
  awaitingGovtOrder: "standard",
  customerCalledOrder: "standard",
  allOrder: "standard",
  contactCustomerOrder: "noTelephone",
  refundOrder: "refund",
  myOrder: "assigned",
  // 001 §2: the Chargeback list has My Order's columns.
  chargeBack: "assigned",
};

/** ADMIN-3's month table: Order ID, Name, Email, Telephone, Date and Time, Processing Date, Process Month, Status. */
export const FUTURE_ORDER_COLUMNS: readonly QueueColumnDefinition[] = [
  column("orderId", "Order ID", "id"),
  C.name,
  C.email,
  C.telephone,
  C.dateAndTime,
  column("processingDate", "Processing Date", "processingDate"),
  column("processMonth", "Process Month", "processMonth"),
  C.status,
];

/** A column set with Due before Status (issue 27). */
const withDue = (columns: readonly QueueColumnDefinition[]): readonly QueueColumnDefinition[] => [
  ...columns.filter((definition) => definition.key !== "status"),
  C.due,
  ...columns.filter((definition) => definition.key === "status"),
];

/** The columns of each queue screen but Future Orders: its set's, with Due on the DUE_FOLDERS. */
const SCREEN_COLUMNS = Object.fromEntries(
  Object.entries(QUEUE_COLUMN_SET_OF).map(([key, set]) => [key, DUE_FOLDERS.includes(key as QueueKey) ? withDue(QUEUE_COLUMN_SETS[set]) : QUEUE_COLUMN_SETS[set]]),
) as { readonly [K in keyof typeof QUEUE_COLUMN_SET_OF]: readonly QueueColumnDefinition[] };

/** The columns a queue's screen shows, without Action: its header row and its export's. */
export const queueColumnsOf = (key: QueueKey): readonly QueueColumnDefinition[] => (key === "futureOrder" ? FUTURE_ORDER_COLUMNS : SCREEN_COLUMNS[key]);

/** QUEUE-3: the status with its first letter capitalised. */
export const capitalised = (text: string): string => (text === "" ? text : text[0]!.toUpperCase() + text.slice(1));

/** A queue cell's text as the table shows it: the display field, Status capitalised, nothing as "". */
export const queueCellText = (definition: QueueColumnDefinition, row: QueueListRow): string => {
  const value = row[definition.field];
  const text = value === null || value === undefined ? "" : String(value);
  return definition.key === "status" ? capitalised(text) : text;
};

// ---------------------------------------------------------------------------------------------
// Report screens (ADMIN-4, ADMIN-5, ADMIN-7)

/** The report tables that can be exported, by the name the export takes. */
export const REPORT_NAMES = ["country-orders", "processed-by", "order-processed"] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

export interface ReportColumnDefinition<Row> {
  readonly header: string;
  /** The cell's text; `index` counts the table's rows from 0 (Processed By's S. No). */
  readonly cell: (row: Row, index: number) => string;
}

/** ADMIN-4: Country, Order, Standard Orders, Priority Orders, Future Orders. */
export const COUNTRY_ORDER_COLUMNS: readonly ReportColumnDefinition<CountryOrdersRow>[] = [
  { header: "Country", cell: (row) => row.citizenship },
  { header: "Order", cell: (row) => String(row.count) },
  { header: "Standard Orders", cell: (row) => String(row.standard_count) },
  { header: "Priority Orders", cell: (row) => String(row.priority_count) },
  { header: "Future Orders", cell: (row) => String(row.future_count) },
];

/** ADMIN-5: S. No, Name, Order Count. */
export const PROCESSED_BY_COLUMNS: readonly ReportColumnDefinition<ProcessedByRow>[] = [
  { header: "S. No", cell: (_row, index) => String(index + 1) },
  { header: "Name", cell: (row) => row.processed_by },
  { header: "Order Count", cell: (row) => String(row.count) },
];

const STATUS_LABELS: Readonly<Record<string, string>> = ORDER_STATUS_LABELS;

/**
 * ADMIN-7, the Order Processed list: Order Id, Processed By, Processed At, Status, Processing Mode,
 * Processing Date, Citizenship. Its rows carry raw values, so the cells format them here
 * (display-format.ts), for the table and the export alike. A status this app does not know (a
 * newer server) is shown as it came rather than as nothing.
 */
export const ORDER_PROCESSED_COLUMNS: readonly ReportColumnDefinition<ProcessedOrderRow>[] = [
  { header: "Order Id", cell: (row) => row.order_id },
  { header: "Processed By", cell: (row) => row.processed_by },
  { header: "Processed At", cell: (row) => formatDateTime(row.processed_at) },
  { header: "Status", cell: (row) => STATUS_LABELS[row.status] ?? row.status },
  { header: "Processing Mode", cell: (row) => processingModeLabel(row.processing_mode) },
  { header: "Processing Date", cell: (row) => formatDay(row.processing_date) },
  { header: "Citizenship", cell: (row) => row.citizenship },
];
