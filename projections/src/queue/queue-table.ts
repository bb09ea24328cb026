import type { Row } from "@etd/event-store";
import { processMonthOf, searchTextOf, type QueueRow } from "./queue-row.ts";

/*
 * The queue_orders table, declared once: each column with its SQL type and the row field it holds,
 * or how it is derived from the row (written, never read back). The table's DDL, the select that
 * loads rows (for a batch and for the lists), the decoding of what it returns and the upsert that
 * writes rows back all come from this one list, so a new queue column is one line here.
 */

type SqlType = "text" | "date" | "timestamptz" | "boolean";

interface Stored {
  readonly type: SqlType;
  readonly field: keyof QueueRow;
  readonly required?: true;
}

interface Derived {
  readonly type: SqlType;
  readonly derive: (row: QueueRow) => string;
}

const COLUMNS = {
  order_id: { type: "text", field: "orderId", required: true },
  process_status: { type: "text", field: "status", required: true },
  processing_mode: { type: "text", field: "processingMode", required: true },
  landing_domain: { type: "text", field: "landingDomain", required: true },
  processing_date: { type: "date", field: "processingDate", required: true },
  process_month: { type: "text", derive: (row) => processMonthOf(row.processingDate) },
  created_at: { type: "timestamptz", field: "createdAt", required: true },
  first_name: { type: "text", field: "firstName" },
  middle_name: { type: "text", field: "middleName" },
  last_name: { type: "text", field: "lastName" },
  email: { type: "text", field: "email" },
  phone_number: { type: "text", field: "phoneNumber" },
  date_of_departure: { type: "text", field: "dateOfDeparture" },
  date_of_travel: { type: "text", field: "dateOfTravel" },
  citizenship: { type: "text", field: "citizenship" },
  refund_date: { type: "date", field: "refundDate" },
  assignee_id: { type: "text", field: "assigneeId" },
  assignee_name: { type: "text", field: "assigneeName" },
  erased: { type: "boolean", field: "erased", required: true },
  search_text: { type: "text", derive: searchTextOf },
} as const satisfies Record<string, Stored | Derived>;

type Column = keyof typeof COLUMNS;
type StoredField = { [C in Column]: (typeof COLUMNS)[C] extends { readonly field: infer F } ? F : never }[Column];
// Fails to compile when a row field has no column.
const everyFieldStored: Record<Exclude<keyof QueueRow, StoredField>, never> = {};
void everyFieldStored;

const entries = Object.entries(COLUMNS) as [Column, Stored | Derived][];
const stored = entries.filter((entry): entry is [Column, Stored] => "field" in entry[1]);

/** The columns of `create table`, the first one the key. */
export const QUEUE_ORDER_COLUMNS_DDL = entries
  .map(([name, column], index) => `${name} ${column.type}${index === 0 ? " primary key" : "required" in column || "derive" in column ? " not null" : ""}`)
  .join(",\n    ");

/** Dates and instants come back as text the row keeps as it is (an instant to the microsecond, in UTC). */
const readAs = (name: Column, type: SqlType): string => {
  switch (type) {
    case "date":
      return `${name}::text as ${name}`;
    case "timestamptz":
      return `to_char(${name} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${name}`;
    default:
      return name;
  }
};

/**
 * What a select reads to make a QueueRow. Instants are aliased as formatted text under their own
 * name, so a query orders by the qualified column (`o.created_at`), never by the bare name.
 */
export const QUEUE_ROW_SELECT = stored.map(([name, column]) => readAs(name, column.type)).join(", ");

/** A selected row as the queues' QueueRow: text columns come back as strings or null. */
export const queueRowOf = (row: Row): QueueRow =>
  Object.fromEntries(
    stored.map(([name, column]) => {
      const value = row[name];
      return [column.field, column.type === "boolean" ? value === true : typeof value === "string" ? value : null];
    }),
  ) as unknown as QueueRow;

/** The rows written back, as one jsonb_to_recordset insert on conflict update. */
export const upsertQueueRows = (orders: string) => {
  const names = entries.map(([name]) => name);
  return `insert into ${orders} (${names.join(", ")})
    select ${names.join(", ")} from jsonb_to_recordset($1::jsonb) as r(${entries.map(([name, column]) => `${name} ${column.type}`).join(", ")})
    on conflict (order_id) do update set ${names
      .filter((name) => name !== "order_id")
      .map((name) => `${name} = excluded.${name}`)
      .join(", ")}`;
};

/** A row as the upsert's JSON reads it. */
export const toQueueRecord = (row: QueueRow): Record<Column, unknown> =>
  Object.fromEntries(entries.map(([name, column]) => [name, "field" in column ? row[column.field] : column.derive(row)])) as Record<Column, unknown>;
