import * as Schema from "effect/Schema";
import { defineEvent } from "../shared/event-definition.ts";
import { OrderId, StaffId } from "../shared/ids.ts";
import { LandingDomain } from "../shared/landing-domain.ts";
import { personalData } from "../shared/personal-data.ts";
import { EmailAddress, IsoDate, IsoDateTime, NonEmptyText } from "../shared/primitives.ts";
import { OrderInvoice, Payment } from "../invoices/invoice-events.ts";
import { OrderApplication, OrderPersonalFields } from "./order-application.ts";
import { IntakeStatus, MailProvider, OrderStatus, ProcessingMode } from "./order-status.ts";

/*
 * Events of one order's stream, `order-{orderId}`. Every one names its order, so an event read
 * alone (an export, a Kafka message) still says what it is about. Events that move the order
 * between statuses carry the status they left (`from`), so projections can keep folder counts
 * without reading their own tables back.
 *
 * Soft delete is a status change to `Deleted`, and undoing it is a status change away from it
 * (000 §4 sends both through change-order-status): there is no OrderDeleted/OrderRestored.
 */

/** A staff member as named on an order: who it is assigned to, who uploaded its document. */
export const StaffRef = Schema.Struct({ id: StaffId, name: NonEmptyText });
export type StaffRef = typeof StaffRef.Type;

/**
 * The customer-facing site (or the demo generator) submitted a paid application. Version 2: every
 * text the customer typed is in `personal` (the trip as typed joined the person there); version 1
 * kept the trip's text in `application`, and is upcast on read (order-upcasters.ts).
 */
export const OrderPlaced = defineEvent(
  "OrderPlaced",
  2,
  Schema.Struct({
    orderId: OrderId,
    processingMode: ProcessingMode,
    landingDomain: LandingDomain,
    /** The day work may start; an order due later is a future order until then. */
    processingDate: IsoDate,
    /** When the customer submitted it on the site, which can precede this event. */
    createdAt: IsoDateTime,
    application: OrderApplication,
    personal: personalData(OrderPersonalFields),
    /**
     * What the customer paid (ADMIN-6's invoice shows it). Optional: orders placed before it was
     * recorded have none, and no invoice can be issued for them.
     */
    payment: Schema.optionalKey(Payment),
  }),
);
export type OrderPlaced = typeof OrderPlaced.schema.Type;

/**
 * A staff member took an unassigned New or Priority order ("Assign to me", or Take next with the
 * `reason` it was chosen for, issue 27); it is now Pending.
 */
export const OrderAssigned = defineEvent(
  "OrderAssigned",
  1,
  Schema.Struct({ orderId: OrderId, from: IntakeStatus, assignee: StaffRef, reason: Schema.optionalKey(NonEmptyText) }),
);
export type OrderAssigned = typeof OrderAssigned.schema.Type;

/** A staff member moved the order to another status (detail page buttons, delete, undelete). */
export const OrderStatusChanged = defineEvent(
  "OrderStatusChanged",
  1,
  Schema.Struct({ orderId: OrderId, from: OrderStatus, to: OrderStatus }),
);
export type OrderStatusChanged = typeof OrderStatusChanged.schema.Type;

/** "Move to Original Folder": assignment cleared, back to New or Priority by processing mode. */
export const OrderMovedToOriginalFolder = defineEvent(
  "OrderMovedToOriginalFolder",
  1,
  Schema.Struct({
    orderId: OrderId,
    from: OrderStatus,
    to: IntakeStatus,
    previousAssignee: Schema.optionalKey(StaffRef),
  }),
);
export type OrderMovedToOriginalFolder = typeof OrderMovedToOriginalFolder.schema.Type;

/** A remark with the Refund flag asked for a refund; the order waits in Refund from that day. */
export const OrderRefundRequested = defineEvent(
  "OrderRefundRequested",
  1,
  Schema.Struct({ orderId: OrderId, from: OrderStatus, refundDate: IsoDate }),
);
export type OrderRefundRequested = typeof OrderRefundRequested.schema.Type;

/** "Refunded it" on the refund list: the money went back; Refund → CompletedRefund. */
export const OrderRefunded = defineEvent("OrderRefunded", 1, Schema.Struct({ orderId: OrderId }));
export type OrderRefunded = typeof OrderRefunded.schema.Type;

/** A remark with the Chargeback flag recorded a payment dispute; the order is now ChargeBack. */
export const OrderChargebackMarked = defineEvent(
  "OrderChargebackMarked",
  1,
  Schema.Struct({ orderId: OrderId, from: OrderStatus }),
);
export type OrderChargebackMarked = typeof OrderChargebackMarked.schema.Type;

/**
 * An Admin deleted the order permanently: its key is destroyed, so every `personal` part of its
 * stream reads as erased from now on. The order stays `Deleted` with its history.
 */
export const OrderPermanentlyDeleted = defineEvent(
  "OrderPermanentlyDeleted",
  1,
  Schema.Struct({ orderId: OrderId, from: OrderStatus }),
);
export type OrderPermanentlyDeleted = typeof OrderPermanentlyDeleted.schema.Type;

/**
 * A staff member added a comment, with its flags (001 §3 remark). Version 3: the text is sealed
 * in `personal`, because staff quote phone and passport numbers in it and a permanent delete must
 * make it unreadable. Version 2 kept the text in the clear, version 1 also stored the flags as the
 * form's 'Y'/'N' strings; both are upcast on read (order-upcasters.ts).
 */
export const RemarkAdded = defineEvent(
  "RemarkAdded",
  3,
  Schema.Struct({
    orderId: OrderId,
    remarkerName: NonEmptyText,
    personal: personalData({ remark: NonEmptyText }),
    whatsapp: Schema.Boolean,
    telephone: Schema.Boolean,
    statusRefund: Schema.Boolean,
    voided: Schema.Boolean,
    chargeBack: Schema.Boolean,
    reportError: Schema.Boolean,
  }),
);
export type RemarkAdded = typeof RemarkAdded.schema.Type;

/**
 * A PDF or image document, as stored by the storage port. Both go in the sealed `personal` part:
 * staff name the files they upload after the traveller ("passport_Liza.pdf"), and the stored path
 * ends with that name.
 */
const StoredFile = {
  fileName: NonEmptyText,
  /** Relative to the storage root, e.g. `docs/100234/etravel.pdf` (served under /uploads/). */
  storedPath: NonEmptyText,
};

/** Where and how staff asked a mail to go; the address is the customer's, so it is personal. */
const mailRequest = {
  provider: MailProvider,
  personal: personalData({ to: EmailAddress }),
};

/**
 * A staff member uploaded the finished document and asked for it to be mailed (the upload form
 * always mails). They are its "processed by". Mailing happens in the mail reactor. Version 2: the
 * file's name and stored path are sealed beside the address (version 1 kept them in the clear).
 */
export const DocumentUploaded = defineEvent(
  "DocumentUploaded",
  2,
  Schema.Struct({
    orderId: OrderId,
    contentType: Schema.String.check(
      Schema.isPattern(/^(application\/pdf|image\/[a-z0-9.+-]+)$/, {
        message: "must be application/pdf or an image type",
      }),
    ),
    sizeBytes: Schema.Int.check(Schema.isGreaterThan(0, { message: "must be more than 0 bytes" })),
    uploadedBy: StaffRef,
    provider: MailProvider,
    personal: personalData({ to: EmailAddress, ...StoredFile }),
  }),
);
export type DocumentUploaded = typeof DocumentUploaded.schema.Type;

/** A staff member pressed "Resend Mail" for the current document; the mail reactor sends it. */
export const DocumentMailResent = defineEvent(
  "DocumentMailResent",
  1,
  Schema.Struct({ orderId: OrderId, ...mailRequest }),
);
export type DocumentMailResent = typeof DocumentMailResent.schema.Type;

/** A staff member pressed "Sent Mail" under Download History: a reminder to download. */
export const ReminderMailSent = defineEvent(
  "ReminderMailSent",
  1,
  Schema.Struct({ orderId: OrderId, ...mailRequest }),
);
export type ReminderMailSent = typeof ReminderMailSent.schema.Type;

/**
 * A staff member sent the invoice ("Send Invoice"); the reactors render and mail it. `invoice` is
 * the order's one invoice (number, date, gateway, amount), the same on every later send; events
 * recorded before invoices were numbered have none.
 */
export const InvoiceSent = defineEvent(
  "InvoiceSent",
  1,
  Schema.Struct({ orderId: OrderId, ...mailRequest, invoice: Schema.optionalKey(OrderInvoice) }),
);
export type InvoiceSent = typeof InvoiceSent.schema.Type;

/**
 * A traveller downloaded the finished document from the public page (PUBLIC-2). Version 2: the
 * file's name and the device (read from the visitor's own User-Agent, text they write) are sealed
 * beside the IP address; version 1 kept them in the clear. `timezone` is the record's own zone,
 * set by the server, not the visitor's.
 */
export const DocumentDownloaded = defineEvent(
  "DocumentDownloaded",
  2,
  Schema.Struct({
    orderId: OrderId,
    timezone: Schema.optionalKey(Schema.String),
    personal: personalData({
      ip: Schema.String,
      location: Schema.optionalKey(Schema.String),
      fileName: NonEmptyText,
      browser: Schema.optionalKey(Schema.String),
      os: Schema.optionalKey(Schema.String),
      device: Schema.optionalKey(Schema.String),
      deviceType: Schema.optionalKey(Schema.String),
    }),
  }),
);
export type DocumentDownloaded = typeof DocumentDownloaded.schema.Type;

/**
 * A staff member entered the payment's transaction id and merchant (dispute evidence). Version 2:
 * both are sealed (staff type them freely, and a transaction id leads to the card holder);
 * version 1 kept them in the clear.
 */
export const TransactionDetailsRecorded = defineEvent(
  "TransactionDetailsRecorded",
  2,
  Schema.Struct({ orderId: OrderId, personal: personalData({ transactionId: NonEmptyText, merchantName: NonEmptyText }) }),
);
export type TransactionDetailsRecorded = typeof TransactionDetailsRecorded.schema.Type;

/**
 * A chargeback defence pack (type 1 or 2) was rendered from the order's history and stored.
 * Version 2: its file's name and path are sealed like every stored file's; version 1 kept them
 * in the clear.
 */
export const DefencePackGenerated = defineEvent(
  "DefencePackGenerated",
  2,
  Schema.Struct({ orderId: OrderId, packType: Schema.Literals([1, 2]), personal: personalData(StoredFile) }),
);
export type DefencePackGenerated = typeof DefencePackGenerated.schema.Type;

/** Every event type an order stream may hold: a new event is defined above and listed here (the catalogue reads this list). */
export const ORDER_EVENTS = [
  OrderPlaced,
  OrderAssigned,
  OrderStatusChanged,
  OrderMovedToOriginalFolder,
  OrderRefundRequested,
  OrderRefunded,
  OrderChargebackMarked,
  OrderPermanentlyDeleted,
  RemarkAdded,
  DocumentUploaded,
  DocumentMailResent,
  ReminderMailSent,
  InvoiceSent,
  DocumentDownloaded,
  TransactionDetailsRecorded,
  DefencePackGenerated,
] as const;
