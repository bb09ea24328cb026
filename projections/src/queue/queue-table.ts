import { rowTable } from "../engine/row-table.ts";
import { processMonthOf, searchTextOf, type QueueRow } from "./queue-row.ts";

/*
 * The queue_orders table: one column a line (engine/row-table.ts). The projection loads, decodes
 * and writes rows through it; the lists select the same columns.
 */
export const QUEUE_ORDERS = rowTable<QueueRow>()({
  order_id: { type: "text", field: "orderId", required: true },
  process_status: { type: "text", field: "status", required: true },
  processing_mode: { type: "text", field: "processingMode", required: true },
  landing_domain: { type: "text", field: "landingDomain", required: true },
  processing_date: { type: "date", field: "processingDate", required: true },
  process_month: { type: "text", derive: (row: QueueRow) => processMonthOf(row.processingDate), required: true },
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
  search_text: { type: "text", derive: searchTextOf, required: true },
});
