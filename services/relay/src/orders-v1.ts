import type { RecordedEvent } from "@etd/event-store";
import { statusAfter, type OrderEvent, type OrderStatus } from "@etd/events";
import type { OutgoingMessage } from "@etd/kafka";

/*
 * The integration events of topic `orders.v1` (issue 15; docs/integration/orders.v1.md, with its
 * JSON Schema beside it). A public contract of their own, not our internal events: other systems
 * (finance, the customer-facing site, analytics) depend on these names and fields, and the
 * internal events may change shape freely behind them. They carry the order id and business facts
 * only, never personal data: no names, addresses, remarks, file names, payment references or staff identities. A
 * change that is not backwards compatible is a new topic (`orders.v2`), published beside this one.
 */

export const ORDERS_V1 = "orders.v1";

export type StatusCause = "assigned" | "moved" | "returned_to_intake" | "refund_requested" | "refunded" | "chargeback";

export type OrdersV1Data =
  | {
      readonly type: "order.placed";
      readonly data: {
        readonly status: OrderStatus;
        readonly processingMode: string;
        readonly landingDomain: string;
        readonly processingDate: string;
        readonly payment?: { readonly amount: string; readonly currency: string };
      };
    }
  | { readonly type: "order.status_changed"; readonly data: { readonly previousStatus: OrderStatus; readonly status: OrderStatus; readonly cause: StatusCause; readonly refundDate?: string } }
  | { readonly type: "order.erased"; readonly data: { readonly previousStatus: OrderStatus } }
  | { readonly type: "order.document_uploaded"; readonly data: { readonly contentType: string; readonly sizeBytes: number } }
  | { readonly type: "order.document_mail_resent"; readonly data: Record<string, never> }
  | { readonly type: "order.reminder_sent"; readonly data: Record<string, never> }
  | { readonly type: "order.invoice_sent"; readonly data: { readonly invoice?: { readonly number: string; readonly issuedAt: string; readonly amount: string; readonly currency: string } } }
  | { readonly type: "order.document_downloaded"; readonly data: Record<string, never> }
  | { readonly type: "order.transaction_recorded"; readonly data: Record<string, never> }
  | { readonly type: "order.defence_pack_generated"; readonly data: { readonly packType: 1 | 2 } };

export type OrdersV1Message = OrdersV1Data & {
  readonly schema: typeof ORDERS_V1;
  /** The id of the event it tells of: the same in the `event-id` header, for consumers' de-duplication. */
  readonly eventId: string;
  readonly orderId: string;
  /** The event's place in the order's own history (1 for its placing): a consumer can see a gap or a repeat. */
  readonly sequence: number;
  readonly occurredAt: string;
};

const noData = {} as Record<string, never>;

const statusChange = (previousStatus: OrderStatus, event: OrderEvent, cause: StatusCause, extra: { refundDate?: string } = {}): OrdersV1Data => ({
  type: "order.status_changed",
  data: { previousStatus, status: statusAfter(event)!, cause, ...extra },
});

/** What an order event tells other systems, or undefined for what stays inside (remarks). */
const dataOf = (event: OrderEvent): OrdersV1Data | undefined => {
  switch (event.type) {
    case "OrderPlaced":
      return {
        type: "order.placed",
        data: {
          status: statusAfter(event)!,
          processingMode: event.data.processingMode,
          landingDomain: event.data.landingDomain,
          processingDate: event.data.processingDate,
          ...(event.data.payment ? { payment: { amount: event.data.payment.amount, currency: event.data.payment.currency } } : {}),
        },
      };
    case "OrderAssigned":
      return statusChange(event.data.from, event, "assigned");
    case "OrderStatusChanged":
      return statusChange(event.data.from, event, "moved");
    case "OrderMovedToOriginalFolder":
      return statusChange(event.data.from, event, "returned_to_intake");
    case "OrderRefundRequested":
      return statusChange(event.data.from, event, "refund_requested", { refundDate: event.data.refundDate });
    case "OrderRefunded":
      return statusChange("Refund", event, "refunded");
    case "OrderChargebackMarked":
      return statusChange(event.data.from, event, "chargeback");
    case "OrderPermanentlyDeleted":
      return { type: "order.erased", data: { previousStatus: event.data.from } };
    case "DocumentUploaded":
      return { type: "order.document_uploaded", data: { contentType: event.data.contentType, sizeBytes: event.data.sizeBytes } };
    case "DocumentMailResent":
      return { type: "order.document_mail_resent", data: noData };
    case "ReminderMailSent":
      return { type: "order.reminder_sent", data: noData };
    case "InvoiceSent": {
      const invoice = event.data.invoice;
      return { type: "order.invoice_sent", data: invoice ? { invoice: { number: invoice.number, issuedAt: invoice.issuedAt, amount: invoice.amount, currency: invoice.currency } } : {} };
    }
    case "DocumentDownloaded":
      return { type: "order.document_downloaded", data: noData };
    case "TransactionDetailsRecorded":
      // That they were recorded, not what: staff type them freely and a transaction id leads to the
      // card holder. They are sealed in the event (issue 25), and a published message cannot be
      // erased: nothing of the sealed part is ever published.
      return { type: "order.transaction_recorded", data: noData };
    case "DefencePackGenerated":
      return { type: "order.defence_pack_generated", data: { packType: event.data.packType } };
    case "RemarkAdded":
      return undefined;
  }
};

export const toOrdersV1 = (recorded: RecordedEvent, event: OrderEvent): OrdersV1Message | undefined => {
  const told = dataOf(event);
  if (!told) return undefined;
  return {
    schema: ORDERS_V1,
    eventId: recorded.eventId,
    ...told,
    orderId: event.data.orderId,
    sequence: Number(recorded.streamPosition),
    occurredAt: event.metadata.occurredAt,
  };
};

/** The Kafka record: keyed by order id, so each order's messages share a partition and keep their order. */
export const toKafkaMessage = (message: OrdersV1Message): OutgoingMessage => ({
  key: message.orderId,
  value: JSON.stringify(message),
  headers: { "event-id": message.eventId, "event-type": message.type, schema: ORDERS_V1, "content-type": "application/json" },
});
