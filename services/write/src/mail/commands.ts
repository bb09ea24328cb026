import type { EventId, MailProvider, MailPurpose, MailTransport, OrderId } from "@etd/events";
import type { ActingStaff } from "../shared/acting-staff.ts";
import type { OrderState } from "../orders/order-state.ts";

/*
 * What can happen to one mail (stream `mail-{mailId}`, DESIGN §8). The mail reactor issues the
 * first four around each provider call; delivery reports come from the providers' webhooks; a
 * retry comes from staff.
 */

/** Record an attempt before the provider is called: the first, an automatic retry, or one staff asked for. */
export interface QueueMail {
  readonly type: "QueueMail";
  readonly mailId: EventId;
  readonly orderId: OrderId;
  readonly purpose: MailPurpose;
  readonly provider: MailProvider;
  readonly transport: MailTransport;
  readonly messageId: string;
  readonly template: string;
  readonly from: string;
  /** The mail as it will be handed over; kept, sealed, so View Email Content shows it as sent. */
  readonly content: { readonly to: string; readonly subject: string; readonly text: string; readonly html: string };
  readonly now: Date;
}

export interface RecordMailSent {
  readonly type: "RecordMailSent";
  readonly mailId: EventId;
  readonly attempt: number;
  readonly transport: MailTransport;
  readonly providerMessageId: string;
}

/**
 * The provider refused (`permanent`) or could not be reached. `retryDelaysMs` is the backoff
 * schedule: attempt n that failed for a passing reason is retried after `retryDelaysMs[n - 1]`,
 * and after the last one the mail stays failed.
 */
export interface RecordMailFailure {
  readonly type: "RecordMailFailure";
  readonly mailId: EventId;
  readonly attempt: number;
  readonly reason: string;
  readonly permanent: boolean;
  readonly retryDelaysMs: readonly number[];
  readonly now: Date;
}

/** An attempt found recorded with no outcome (the sender stopped between the two). */
export interface MarkMailOutcomeUnknown {
  readonly type: "MarkMailOutcomeUnknown";
  readonly mailId: EventId;
  readonly attempt: number;
}

export type DeliveryOutcome = "delivered" | "bounced" | "complained";

/** A provider's report, already checked for its signature at the edge. */
export interface RecordDeliveryReport {
  readonly type: "RecordDeliveryReport";
  readonly mailId: EventId;
  readonly orderId: OrderId;
  readonly transport: "ses" | "sendgrid";
  readonly outcome: DeliveryOutcome;
  readonly providerEventId: string;
  readonly reportedAt: string;
  /** Bounces: whether the provider gave up on the address, and its diagnosis (no address in it). */
  readonly permanent?: boolean | undefined;
  readonly reason?: string | undefined;
}

/**
 * Retry on a failed mail or one whose outcome is unknown. The order's state comes along because
 * QUEUE-12's read-only rule (the order's) decides who may.
 */
export interface RequestMailRetry {
  readonly type: "RequestMailRetry";
  readonly mailId: EventId;
  readonly orderId: OrderId;
  readonly actor: ActingStaff;
  readonly order: OrderState;
}

export type MailCommand = QueueMail | RecordMailSent | RecordMailFailure | MarkMailOutcomeUnknown | RecordDeliveryReport | RequestMailRetry;
