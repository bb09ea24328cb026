import type { MailProvider, MailPurpose, MailTransport, OrderApplication, OrderPersonalData } from "@etd/events";
import type { LandingDomain, OrderStatus, PROCESSING_MODE_LABELS, ProcessingMode, Role } from "./vocabulary.ts";

/*
 * What the order page reads and what it is told back (001 §2 "View order", ORDER-1..14): the
 * order detail answer, the "changed since you opened it" refusal, the presence of colleagues and
 * the audit lines. Types only: the read model and the endpoints declare their results with them,
 * the web app reads them.
 */

/** The back office's fields of an order; everything else in the document comes from the application. */
export interface OrderProcessingFields {
  readonly order_id: string;
  /** The label the page shows ("Standard Processing", ORDER-4); the raw mode is processing_mode_value. */
  readonly processing_mode: (typeof PROCESSING_MODE_LABELS)[ProcessingMode];
  readonly processing_mode_value: ProcessingMode;
  readonly landing_domain: LandingDomain;
  /** YYYY-MM-DD */
  readonly processing_date: string;
  /** "2025-04" */
  readonly process_month: string;
  readonly created_at: string;
  readonly process_status: OrderStatus;
  /** As staff read it ("Customer Called"). */
  readonly process_status_label: string;
  /** The assignee's name; empty when unassigned (000 §3). */
  readonly assign_to: string;
}

/** 001 §3 "Order as read in the view page": one flat object with the spec's snake_case names. */
export type OrderDocument = OrderProcessingFields & Partial<OrderApplication> & Partial<OrderPersonalData>;

export type YesNoFlag = "Y" | "N";

/**
 * Where a mail stands (DESIGN §8): asked for by an order event, then its own stream's story:
 * queued (an attempt recorded before the provider is called), sent (the provider accepted it),
 * delivered / bounced / complained (the provider's later report), failed (refused or unreachable;
 * another attempt follows while `retry_at` is set), unknown (the sender stopped between recording
 * an attempt and hearing its outcome: settled by a report or by staff's Retry).
 */
export type MailStatus = "requested" | "queued" | "sent" | "delivered" | "bounced" | "complained" | "failed" | "unknown";

/** One line of Email History (ORDER-2), in the shape 001 §3 names (`uploadDoc`, `remainder_mail`). */
export interface MailHistoryEntry {
  readonly id: string;
  readonly order_id: string;
  readonly create_ts: string;
  readonly remainder_mail: 0 | 1;
  readonly purpose: MailPurpose;
  readonly uploadDoc: {
    readonly mail_service_provider: MailProvider;
    readonly file1: string | null;
    /** Relative to the storage root, served under /uploads/ (ORDER-14). */
    readonly path: string | null;
  };
  /** The address it went to; null after a permanent delete. */
  readonly email: string | null;
  readonly requested_by: string;
  readonly status: MailStatus;
  /** The adapter of the last attempt: the outbox when the provider had no credentials (DESIGN §8). */
  readonly transport: MailTransport | null;
  /** The error: the provider's reason for a failure or a bounce (no address in it); null otherwise. */
  readonly reason: string | null;
  /** The last attempt recorded, from 1; 0 while none was. */
  readonly attempt: number;
  /** When the next automatic attempt is due (ISO), while one is; null once the mail failed for good. */
  readonly retry_at: string | null;
  /** When the provider accepted the last attempt. */
  readonly sent_at: string | null;
  /** The time of the provider's report (delivered, bounced or complained), as the provider gives it. */
  readonly delivered_at: string | null;
  /** Staff pressed Retry and the new attempt has not been queued yet. */
  readonly retry_requested: boolean;
}

/**
 * View Email Content (ORDER-12): GET /api/admin/mail-content/{mailId} answers the mail as it was
 * rendered for sending. `transport` and `sentAt` are null until an attempt was sent.
 */
export interface MailContentAnswer {
  readonly mailId: string;
  readonly orderId: string;
  readonly subject: string;
  readonly from: string;
  readonly to: string;
  readonly html: string;
  readonly text: string;
  readonly transport: MailTransport | null;
  readonly sentAt: string | null;
}

/** The Upload Document section's current file (ORDER-3): at most one entry. */
export interface UploadDocEntry {
  readonly file1: string;
  readonly customer_name: string;
  readonly path: string;
  readonly uploaded_by: string;
  readonly uploaded_at: string;
}

/** One download (ORDER-8 for staff); `ip` and `location` are null after a permanent delete. */
export interface DownloadHistoryEntry {
  readonly id: string;
  readonly order_id: string;
  readonly create_ts: string;
  readonly ip: string | null;
  readonly location: string | null;
  readonly timezone: string | null;
  readonly browser: string | null;
  readonly os: string | null;
  readonly device: string | null;
  readonly device_type: string | null;
  readonly file: string;
}

/** One Comment History line (ORDER-9): flags are 'Y' or 'N'. */
export interface RemarkEntry {
  readonly id: string;
  readonly order_id: string;
  readonly create_ts: string;
  /** MM/DD/YYYY and hh:mm:ss AM/PM, US Eastern. */
  readonly us_date: string;
  readonly us_time: string;
  /** The team column: who wrote it. */
  readonly remark_name: string;
  readonly remark: string;
  readonly whatsapp: YesNoFlag;
  readonly telephone: YesNoFlag;
  readonly status_refund: YesNoFlag;
  readonly voided: YesNoFlag;
  readonly chargeback: YesNoFlag;
  readonly report_error: YesNoFlag;
}

/** The refusal of a member's defence pack while their others are still being rendered (429). */
export const DEFENCE_PACK_RUNNING = "Your other defence packs are still being made. Please wait for one to finish.";

export interface DefencePackEntry {
  readonly packType: 1 | 2;
  readonly file1: string;
  readonly path: string;
  readonly generated_at: string;
}

/**
 * What GET /admin/get-orders-details/{orderId} answers in `data` (ORDER-1): the order document
 * with the related records of 001 §3, and the version the page sends back with a decisive action.
 */
export type OrderDetails = OrderDocument & {
  /**
   * How many events the order's stream held when this answer was read: the page sends it back as
   * `expectedVersion`, and the command is refused, changing nothing, if the order moved on.
   */
  readonly version: number;
  /** The assignee's staff id; null when unassigned (QUEUE-12's read-only rule compares it). */
  readonly assign_to_id: string | null;
  readonly refund_date: string | null;
  /** Transaction details (ORDER-13); null until recorded. */
  readonly transaction_id: string | null;
  readonly merchant_name: string | null;
  readonly mailHistory: readonly MailHistoryEntry[];
  /** Invoices are mailed too, but Email History lists document and reminder mails only. */
  readonly invoiceHistory: readonly MailHistoryEntry[];
  readonly uploadDoc: readonly UploadDocEntry[];
  readonly downloadHistory: readonly DownloadHistoryEntry[];
  readonly remark: readonly RemarkEntry[];
  readonly defencePacks: readonly DefencePackEntry[];
  /** True after a permanent delete: the personal fields are gone from the document. */
  readonly personal_data_erased: boolean;
};

/** One line of an audit timeline: who, when, from where, what changed (CARD-4). */
export interface AuditLine {
  readonly stream: string;
  /** The event's version within its stream: 1, 2, 3… */
  readonly position: number;
  /** The global log position, `"<tx>.<seq>"`. */
  readonly log_position: string;
  readonly event_id: string;
  readonly occurred_at: string;
  readonly actor_kind: "staff" | "system" | "customer";
  readonly actor_name: string;
  readonly actor_role: Role | null;
  /** The address the request came from, when a person's request caused the event. */
  readonly request_ip: string | null;
  readonly event_type: string;
  readonly summary: string;
}

/** The message of a decisive action refused because the order moved on since the page read it (the catalogue's words). */
export { ORDER_CHANGED_MESSAGE } from "@etd/events/vocabulary";

/**
 * `data` of that refusal (HTTP 409, status 0): what happened after the version the page sent,
 * read from the log itself (not a read model that may lag), and the version to send next time.
 */
export interface OrderChangedAnswer {
  readonly changed: true;
  readonly version: number;
  readonly changes: readonly AuditLine[];
}

/** A colleague with the same order open (the page's presence badge). */
export interface OrderViewer {
  /** The page's own id (one per open page); the same member may have the order open twice. */
  readonly viewId: string;
  readonly staffId: string;
  readonly name: string;
  readonly role: Role;
  /** When this page opened the order, ISO 8601 UTC. */
  readonly since: string;
}

/**
 * How many order pages one member may hold open at once (presence views): the API refuses a new
 * one beyond it with 429, so a client cannot flood the presence table.
 */
export const MAX_VIEWS_PER_STAFF = 20;

/** `data` of POST /admin/order-presence: who else has the order open now, the caller's page excluded. */
export interface OrderPresenceAnswer {
  readonly viewers: readonly OrderViewer[];
  /** How often the page should say it is still open (ms); a page silent for three times that is gone. */
  readonly heartbeatMs: number;
}
