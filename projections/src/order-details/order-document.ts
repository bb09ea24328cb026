import {
  isErased,
  OrderApplication,
  type OrderPersonalData,
  type OrderPlaced,
  type OrderStatus,
} from "@etd/events";
import { intakeStatusOf, statusLabel } from "@etd/events";
import type { OrderDocument, OrderProcessingFields as ProcessingFields } from "@etd/contract";
import { PROCESSING_MODE_LABELS } from "./status-labels.ts";

/*
 * The order as the view page reads it (001 §3 "Order as read in the view page", ORDER-4..7): one
 * flat object with the spec's snake_case names, the application and the personal fields side by
 * side, plus the back office's processing fields.
 *
 * Decisions:
 * - processing_mode holds the label the page shows ("Standard Processing" / "Priority
 *   Processing", ORDER-4); the raw mode is kept beside it as processing_mode_value.
 * - process_month is the processing date's "YYYY-MM": unambiguous across years and sortable,
 *   and the future-order tiles can name the month from it.
 * - The four arrival counts default to 0 (001 §2 "The counts default to 0"), whatever the trip.
 * - process_status is the status value (e.g. "CustomerCalled"); process_status_label is the way
 *   staff read it ("Customer Called").
 */

/** The back office's fields and the document: the wire contract's own types (contract/src/order-page.ts). */
export type { OrderDocument } from "@etd/contract";

const COUNT_KEYS = [
  "family_members_below_18",
  "family_members_18_and_above",
  "baggage_checked_in",
  "baggage_hand_carried",
] as const;

const PROCESSING_KEYS: readonly (keyof ProcessingFields)[] = [
  "order_id",
  "processing_mode",
  "processing_mode_value",
  "landing_domain",
  "processing_date",
  "process_month",
  "created_at",
  "process_status",
  "process_status_label",
  "assign_to",
];

/**
 * What survives a permanent delete: an allow-list (the trip, the declarations without the
 * person, the processing fields) rather than a deny-list, so a personal field added to the
 * catalogue later is dropped without anyone remembering to list it here.
 */
const KEPT_AFTER_ERASURE: ReadonlySet<string> = new Set([...Object.keys(OrderApplication.fields), ...PROCESSING_KEYS]);

/** The document as OrderPlaced describes it; the status is the intake one, nobody assigned. */
export const placedDocument = (data: OrderPlaced["data"]): OrderDocument => {
  const counts = Object.fromEntries(COUNT_KEYS.map((key) => [key, data.application[key] ?? 0]));
  const status: OrderStatus = intakeStatusOf(data.processingMode);
  return {
    ...data.application,
    ...counts,
    ...(isErased(data.personal) ? {} : data.personal),
    order_id: data.orderId,
    processing_mode: PROCESSING_MODE_LABELS[data.processingMode],
    processing_mode_value: data.processingMode,
    landing_domain: data.landingDomain,
    processing_date: data.processingDate,
    process_month: data.processingDate.slice(0, 7),
    created_at: data.createdAt,
    process_status: status,
    process_status_label: statusLabel(status),
    assign_to: "",
  };
};

/** The document with the order's current status and assignee written into it. */
export const withProcessing = (document: OrderDocument, status: OrderStatus, assignee: string | null): OrderDocument => ({
  ...document,
  process_status: status,
  process_status_label: statusLabel(status),
  assign_to: assignee ?? "",
});

/** The document without the person: every key not on the allow-list goes. */
export const withoutPersonalData = (document: OrderDocument): OrderDocument =>
  Object.fromEntries(Object.entries(document).filter(([key]) => KEPT_AFTER_ERASURE.has(key))) as OrderDocument;

/** The traveller's name as the upload list shows it (`customer_name`); empty once erased. */
export const customerName = (document: Partial<OrderPersonalData>): string =>
  [document.first_name, document.middle_name, document.last_name, document.suffix]
    .filter((part): part is string => typeof part === "string" && part.length > 0)
    .join(" ");
