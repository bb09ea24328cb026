import { intakeStatusOf, isErased, type AnyEvent, type LandingDomain, type OrderStatus, type ProcessingMode, statusAfter } from "@etd/events";
import { internationalPhone } from "./queue-display.ts";

/*
 * One order as the queues show it, and how each event changes it. Pure: the projection loads the
 * rows a batch touches, folds the batch through `evolveQueueRow` in memory and writes them back.
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
