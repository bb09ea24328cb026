import type {
  IsoDate,
  IsoDateTime,
  LandingDomain,
  MailProvider,
  OrderApplication,
  OrderId,
  OrderInvoice,
  OrderPersonalData,
  OrderStatus,
  Payment,
  ProcessingMode,
  StaffRef,
} from "@etd/events";
import type { ActingStaff } from "../shared/acting-staff.ts";

/*
 * Commands on one order's stream, `order-{orderId}`. Each carries everything its rule needs:
 * the acting staff member where a rule depends on role, the current time where a rule depends
 * on time (deciders never read the clock). Who acted and when also goes into the events'
 * metadata, which the handler adds.
 *
 * Every staff command that changes an order from the order page (or its lists) carries `actor`:
 * an order assigned to someone else is read-only below Manager (QUEUE-12), and the decider holds
 * that rule for all of them (`StaffOrderCommand`).
 */

/** The customer-facing site's service call, or the demo generator, submitted a paid order. */
export interface PlaceOrder {
  readonly type: "PlaceOrder";
  readonly orderId: OrderId;
  readonly processingMode: ProcessingMode;
  readonly landingDomain: LandingDomain;
  readonly processingDate: IsoDate;
  readonly createdAt: IsoDateTime;
  readonly application: OrderApplication;
  /** In plain form; the handler encrypts it with the order's key before appending. */
  readonly personal: OrderPersonalData;
  /** What the customer paid, when the site reports it: the invoice states it (ADMIN-6). */
  readonly payment?: Payment | undefined;
}

/**
 * What the member saw of an order when they selected it with "select all" across pages (issue 16):
 * a bulk action then applies to the order only while it still has that status and that assignee,
 * so work decided on a list is never applied to an order someone changed meanwhile.
 */
export interface AsSelected {
  readonly status: OrderStatus;
  /** The assignee's staff id, or null when nobody held the order. */
  readonly assigneeId: string | null;
}

/** "Assign to me" on the New and Priority lists (QUEUE-9). */
export interface AssignOrder {
  readonly type: "AssignOrder";
  readonly orderId: OrderId;
  readonly assignee: StaffRef;
  /** ISO 8601; decides whether a losing assignment's message names the day of the winning one. */
  readonly now: string;
  readonly asSelected?: AsSelected | undefined;
  /** Take next (issue 27): why this order was the one chosen, kept in the event. */
  readonly reason?: string | undefined;
}

/**
 * A move button on the detail page (ORDER-11) or Delete on a list (QUEUE-8). `to: "Deleted"`
 * is the soft delete; any later move undoes it. `permanentDelete` is the Admin-only erase.
 */
export interface ChangeStatus {
  readonly type: "ChangeStatus";
  readonly orderId: OrderId;
  readonly to: OrderStatus;
  readonly actor: ActingStaff;
  readonly permanentDelete: boolean;
  readonly asSelected?: AsSelected | undefined;
}

/** "Move to Original Folder" on My Orders (QUEUE-10). */
export interface MoveOrderToOriginalFolder {
  readonly type: "MoveOrderToOriginalFolder";
  readonly orderId: OrderId;
  readonly actor: ActingStaff;
  readonly asSelected?: AsSelected | undefined;
}

/** "Refunded it" on the refund list (QUEUE-11). */
export interface MarkOrderRefunded {
  readonly type: "MarkOrderRefunded";
  readonly orderId: OrderId;
  readonly actor: ActingStaff;
  readonly asSelected?: AsSelected | undefined;
}

/** Add Comment on the detail page (ORDER-10); the Refund and Chargeback flags move the order. */
export interface AddRemark {
  readonly type: "AddRemark";
  readonly orderId: OrderId;
  readonly remark: string;
  readonly remarkerName: string;
  readonly whatsapp: boolean;
  readonly telephone: boolean;
  readonly statusRefund: boolean;
  readonly voided: boolean;
  readonly chargeBack: boolean;
  readonly reportError: boolean;
  /** The refund date a Refund flag sets. */
  readonly today: IsoDate;
  readonly actor: ActingStaff;
}

/** Upload Document (ORDER-3): the file is already stored; the upload always mails it. */
export interface UploadDocument {
  readonly type: "UploadDocument";
  readonly orderId: OrderId;
  readonly fileName: string;
  readonly storedPath: string;
  readonly contentType: string;
  readonly sizeBytes: number;
  /** Who uploads: the rule's actor, and the event's `uploadedBy` (the order's "processed by"). */
  readonly actor: ActingStaff;
  readonly provider: MailProvider;
  /** The address the staff member typed (prefilled with the customer's). */
  readonly to: string;
}

/** Resend Mail in Email History (ORDER-2). */
export interface ResendDocumentMail {
  readonly type: "ResendDocumentMail";
  readonly orderId: OrderId;
  readonly provider: MailProvider;
  readonly to: string;
  readonly actor: ActingStaff;
}

/** Sent Mail under Download History (ORDER-8): a reminder to download the document. */
export interface SendReminderMail {
  readonly type: "SendReminderMail";
  readonly orderId: OrderId;
  readonly provider: MailProvider;
  readonly to: string;
  readonly actor: ActingStaff;
}

/**
 * The reminder the system sends by itself when the customer has not downloaded the document
 * `reminderAfterMs` after its upload (issue 12): once per uploaded document, and not when staff
 * already reminded them.
 */
export interface SendAutomaticReminder {
  readonly type: "SendAutomaticReminder";
  readonly orderId: OrderId;
  readonly reminderAfterMs: number;
  readonly now: Date;
}

/**
 * Send Invoice (ADMIN-6). Without `to`, the invoice goes to the customer's own address, which any
 * member may do from its own screen. Another address is a change of the order's correspondence:
 * it needs `actor`, and QUEUE-12's read-only rule applies to it.
 *
 * `invoice` is the number the year's register has just issued for the order; an order that has
 * had an invoice keeps it and sends it again, so later sends need none.
 */
export interface SendInvoice {
  readonly type: "SendInvoice";
  readonly orderId: OrderId;
  readonly provider: MailProvider;
  readonly to?: string | undefined;
  readonly actor?: ActingStaff | undefined;
  readonly invoice?: OrderInvoice | undefined;
}

/** Download Now on the public page (PUBLIC-2); what the browser told us about the device. */
export interface RecordDownload {
  readonly type: "RecordDownload";
  readonly orderId: OrderId;
  readonly fileName: string;
  readonly now: Date;
  readonly ip: string;
  readonly location?: string | undefined;
  readonly browser?: string | undefined;
  readonly os?: string | undefined;
  readonly device?: string | undefined;
  readonly deviceType?: string | undefined;
  readonly timezone?: string | undefined;
}

/** Enter Transaction Details (ORDER-13). */
export interface RecordTransactionDetails {
  readonly type: "RecordTransactionDetails";
  readonly orderId: OrderId;
  readonly transactionId: string;
  readonly merchantName: string;
  readonly actor: ActingStaff;
}

/** A defence pack PDF (ORDER-13) was rendered and stored; this records it. */
export interface RecordDefencePack {
  readonly type: "RecordDefencePack";
  readonly orderId: OrderId;
  readonly packType: 1 | 2;
  readonly fileName: string;
  readonly storedPath: string;
  readonly actor: ActingStaff;
}

export type OrderCommand =
  | PlaceOrder
  | AssignOrder
  | ChangeStatus
  | MoveOrderToOriginalFolder
  | MarkOrderRefunded
  | AddRemark
  | UploadDocument
  | ResendDocumentMail
  | SendReminderMail
  | SendAutomaticReminder
  | SendInvoice
  | RecordDownload
  | RecordTransactionDetails
  | RecordDefencePack;

/**
 * The staff commands that change an order from its page or its lists: read-only for roles below
 * Manager when the order is assigned to someone else (QUEUE-12). AssignOrder has its own rule;
 * SendInvoice belongs to another screen (ADMIN-6).
 */
export type StaffOrderCommand =
  | ChangeStatus
  | AddRemark
  | UploadDocument
  | ResendDocumentMail
  | SendReminderMail
  | RecordTransactionDetails
  | RecordDefencePack
  | MarkOrderRefunded
  | MoveOrderToOriginalFolder;
