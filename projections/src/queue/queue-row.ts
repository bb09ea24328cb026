import type { QueueListField } from "@etd/contract";
import { rowTable } from "../engine/row-table.ts";
import { intakeStatusOf, isErased, type AnyEvent, type LandingDomain, type OrderStatus, type ProcessingMode, statusAfter } from "@etd/events";

/*
 * One order as the queues show it: the row, its table, and how each event changes it, so that a
 * new queue column is one place here (and its list field in the contract's queue-columns.ts). Pure:
 * the projection loads the rows a batch touches, folds the batch through `evolveQueueRow` in memory
 * and writes them back.
 */

export interface QueueRow {
  readonly orderId: string;
  readonly status: OrderStatus;
  readonly processingMode: ProcessingMode;
  readonly landingDomain: LandingDomain;
  /** YYYY-MM-DD */
  readonly processingDate: string;
  /** ISO 8601 UTC */
  readonly createdAt: string;
  readonly firstName: string | null;
  readonly middleName: string | null;
  readonly lastName: string | null;
  readonly email: string | null;
  /** With its country code ("+63 9171234567"). */
  readonly phoneNumber: string | null;
  /** As the customer typed them; usually YYYY-MM-DD. */
  readonly dateOfDeparture: string | null;
  readonly dateOfTravel: string | null;
  /** As the customer typed it (sealed in OrderPlaced since version 2): gone with the person. */
  readonly citizenship: string | null;
  /** YYYY-MM-DD; kept after "Refunded it". */
  readonly refundDate: string | null;
  readonly assigneeId: string | null;
  readonly assigneeName: string | null;
  /** Permanently deleted: every personal value above is gone. */
  readonly erased: boolean;
}

/*
 * The queue_orders table: one column a line (engine/row-table.ts), beside the row it holds. The
 * projection loads, decodes and writes rows through it; the lists select the same columns, and
 * `list` names the field of the contract's list row (QUEUE_LIST_FIELDS) each one fills.
 */
export const QUEUE_ORDERS = rowTable<QueueRow, QueueListField>()({
  order_id: { type: "text", field: "orderId", required: true, list: "order_id" },
  process_status: { type: "text", field: "status", required: true, list: "process_status" },
  processing_mode: { type: "text", field: "processingMode", required: true, list: "processing_mode" },
  landing_domain: { type: "text", field: "landingDomain", required: true, list: "landing_domain" },
  processing_date: { type: "date", field: "processingDate", required: true, list: "processing_date" },
  process_month: { type: "text", derive: (row: QueueRow) => processMonthOf(row.processingDate), required: true, list: "process_month" },
  created_at: { type: "timestamptz", field: "createdAt", required: true, list: "created_at" },
  first_name: { type: "text", field: "firstName", list: "first_name" },
  middle_name: { type: "text", field: "middleName", list: "middle_name" },
  last_name: { type: "text", field: "lastName", list: "last_name" },
  email: { type: "text", field: "email", list: "email" },
  phone_number: { type: "text", field: "phoneNumber", list: "phone_number" },
  date_of_departure: { type: "text", field: "dateOfDeparture", list: "date_of_departure" },
  date_of_travel: { type: "text", field: "dateOfTravel", list: "date_of_travel" },
  citizenship: { type: "text", field: "citizenship", list: "citizenship" },
  refund_date: { type: "date", field: "refundDate", list: "refund_date" },
  assignee_id: { type: "text", field: "assigneeId", list: "assign_to_id" },
  assignee_name: { type: "text", field: "assigneeName", list: "assign_to" },
  erased: { type: "boolean", field: "erased", required: true },
  search_text: { type: "text", derive: (row: QueueRow) => searchTextOf(row), required: true },
});

/**
 * The version of the queue read model (engine/projection.ts): raise it whenever the row, its
 * table, its fold or the counts change, and the engine rebuilds the read model beside the live one.
 * 2 (issue 25): citizenship comes from OrderPlaced's sealed part and goes with the person on a
 * permanent delete; the rebuild drops it from orders erased before.
 */
export const QUEUE_VERSION = 2;

/**
 * The telephone number with its country code, as the list shows it and the chat link needs it
 * (QUEUE-13): "+63 9171234567". A number already written with a "+" is kept as it is.
 */
export const internationalPhone = (number: string | null, countryCode: string | null): string | null => {
  if (number === null || number === "") return null;
  const code = countryCode?.replace(/[^0-9]/g, "") ?? "";
  if (number.startsWith("+") || code === "") return number;
  return `+${code} ${number}`;
};

/** The event types that change a queue row; the projection loads rows for these only. */
export const QUEUE_EVENT_TYPES: ReadonlySet<AnyEvent["type"]> = new Set([
  "OrderPlaced",
  "OrderAssigned",
  "OrderStatusChanged",
  "OrderMovedToOriginalFolder",
  "OrderRefundRequested",
  "OrderRefunded",
  "OrderChargebackMarked",
  "OrderPermanentlyDeleted",
]);

const PERSONAL_NONE = {
  firstName: null,
  middleName: null,
  lastName: null,
  email: null,
  phoneNumber: null,
  citizenship: null,
} as const;

const orEmpty = (value: string | undefined): string | null => (value === undefined || value === "" ? null : value);

/** The row after one event; the same object when the event changes nothing a queue shows. */
export const evolveQueueRow = (row: QueueRow | undefined, event: AnyEvent): QueueRow | undefined => {
  if (event.type === "OrderPlaced") {
    const { data } = event;
    const personal = isErased(data.personal)
      ? { ...PERSONAL_NONE, erased: true }
      : {
          firstName: orEmpty(data.personal.first_name),
          middleName: orEmpty(data.personal.middle_name),
          lastName: orEmpty(data.personal.last_name),
          email: orEmpty(data.personal.email),
          phoneNumber: internationalPhone(orEmpty(data.personal.phone_number), orEmpty(data.personal.country_phone_code)),
          citizenship: orEmpty(data.personal.citizenship),
          erased: false,
        };
    return {
      orderId: data.orderId,
      status: intakeStatusOf(data.processingMode),
      processingMode: data.processingMode,
      landingDomain: data.landingDomain,
      processingDate: data.processingDate,
      createdAt: data.createdAt,
      ...personal,
      dateOfDeparture: orEmpty(data.application.date_of_departure),
      dateOfTravel: orEmpty(data.application.date_of_travel),
      refundDate: null,
      assigneeId: null,
      assigneeName: null,
    };
  }
  // A stream starts with OrderPlaced; anything else without a row is not an order to show.
  if (row === undefined) return row;
  switch (event.type) {
    case "OrderAssigned":
      return { ...row, status: statusAfter(event)!, assigneeId: event.data.assignee.id, assigneeName: event.data.assignee.name };
    case "OrderStatusChanged":
      return { ...row, status: statusAfter(event)! };
    case "OrderMovedToOriginalFolder":
      return { ...row, status: statusAfter(event)!, assigneeId: null, assigneeName: null };
    case "OrderRefundRequested":
      return { ...row, status: statusAfter(event)!, refundDate: event.data.refundDate };
    case "OrderRefunded":
      return { ...row, status: statusAfter(event)! };
    case "OrderChargebackMarked":
      return { ...row, status: statusAfter(event)! };
    case "OrderPermanentlyDeleted":
      // The row stays, Deleted, so every count stays right; the person in it goes.
      return { ...row, ...PERSONAL_NONE, status: statusAfter(event)!, erased: true };
    default:
      return row;
  }
};

/** "2025-04": the month a future order is grouped under (ADMIN-3). */
export const processMonthOf = (processingDate: string): string => processingDate.slice(0, 7);

/**
 * What the search box matches, lowercased: order id, the full name, e-mail and phone (with and
 * without the country code's "+" and space, so "639171234567" and "+63 917" both find it).
 * After a permanent delete only the order id, which is not personal, is left.
 */
export const searchTextOf = (row: QueueRow): string => {
  const name = [row.firstName, row.middleName, row.lastName].filter((part) => part !== null).join(" ");
  const phoneDigits = row.phoneNumber?.replace(/[^0-9]/g, "") ?? "";
  return [row.orderId, name, row.email ?? "", row.phoneNumber ?? "", phoneDigits]
    .filter((part) => part !== "")
    .join("\n")
    .toLowerCase();
};
