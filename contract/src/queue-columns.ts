import type { CountryOrdersRow, ProcessedByRow, ProcessedOrderRow, QueueListRow } from "./answers.ts";
import { formatDateTime, formatDay, processingModeLabel } from "./display-format.ts";
import type { QueueKey } from "./queues.ts";
import { ORDER_STATUS_LABELS } from "./vocabulary.ts";

/*
 * The columns the queue screens and the report screens show (QUEUE-3, 001 §2, ADMIN-3..5), as
 * data: one list that the web app's tables and the API's CSV export (issue 16 D) both read, so
 * an export always has the columns on screen. A column names the list row's display field it
 * shows; the server formats those for each list (QUEUE-6). The Action column is the web's own
 * (it holds buttons, not data) and is not listed here.
 */

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

/** The columns a queue's screen shows, without Action: its header row and its export's. */
export const queueColumnsOf = (key: QueueKey): readonly QueueColumnDefinition[] =>
  key === "futureOrder" ? FUTURE_ORDER_COLUMNS : QUEUE_COLUMN_SETS[QUEUE_COLUMN_SET_OF[key]];

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
