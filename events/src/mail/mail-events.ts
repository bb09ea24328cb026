import * as Schema from "effect/Schema";
import { MailProvider } from "../orders/order-status.ts";
import { defineEvent } from "../shared/event-definition.ts";
import { EventId, OrderId } from "../shared/ids.ts";
import { EmailAddress, IsoDateTime, NonEmptyText } from "../shared/primitives.ts";
import { personalData } from "../shared/personal-data.ts";
import { StaffRef } from "../orders/order-events.ts";

/*
 * Events of one mail's stream, `mail-{mailId}` (DESIGN §8). A mail is asked for by an event in
 * its order's stream (an upload, a resend, a reminder, an invoice); the id of that event is the
 * mail's id. Everything that then happens to the mail is recorded here rather than in the order's
 * stream: the attempt before the provider is called (so a mail is never sent twice for one event),
 * the provider's answer, and the provider's later delivery reports. The order's own version moves
 * only with what staff and customers do to it.
 *
 * MailQueued carries the mail as it was handed over (recipient, subject, text, HTML), so View
 * Email Content shows exactly what was sent, and MailFailed the provider's answer (version 2).
 * Both are sealed with this stream's key,
 * which the permanent delete of the order destroys along with the order's own (the order's
 * request events name every mail of the order).
 */

/**
 * Why a mail went out: the document after upload or resend, a reminder, or an invoice. The
 * mail history (ORDER-2) lists document and reminder mails; Remainder Mail = reminder.
 */
export const MailPurpose = Schema.Literals(["document", "reminder", "invoice"]);
export type MailPurpose = typeof MailPurpose.Type;

/**
 * The adapter that actually sent a mail: the outbox writes `.eml` files when the chosen
 * provider has no credentials, and the mail history says so (DESIGN §8).
 */
export const MailTransport = Schema.Literals(["ses", "sendgrid", "outbox"]);
export type MailTransport = typeof MailTransport.Type;

/** The order events that ask for a mail, and why: each one's event id names the mail's stream. */
export const MAIL_REQUEST_PURPOSES = {
  DocumentUploaded: "document",
  DocumentMailResent: "document",
  ReminderMailSent: "reminder",
  InvoiceSent: "invoice",
} as const satisfies Record<string, MailPurpose>;

export type MailRequestType = keyof typeof MAIL_REQUEST_PURPOSES;

/** Whether an event of this type (an order event, by its type name) asks for a mail. */
export const isMailRequestType = (type: string): type is MailRequestType => Object.hasOwn(MAIL_REQUEST_PURPOSES, type);

/** What a provider may report of a mail, from the mildest to the gravest. */
export type ReportedStage = "delivered" | "bounced" | "complained";
const REPORT_RANK: Readonly<Record<ReportedStage, number>> = { delivered: 1, bounced: 2, complained: 3 };

/**
 * Where a mail stands after a step, given where it stood: a provider's report outranks what the
 * sender records (a late acceptance never hides a bounce), and a graver report a milder one (a
 * delivery report never hides a complaint). The mail's decider and Email History both fold by it.
 */
export const stageAfter = <S extends string>(current: S | ReportedStage, next: S | ReportedStage): S | ReportedStage => {
  const rank = (stage: string) => REPORT_RANK[stage as ReportedStage] ?? 0;
  return rank(current) > rank(next) || (rank(current) > 0 && rank(next) === 0) ? current : next;
};

const Attempt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(1, { message: "attempts count from 1" }));

const mailRef = { mailId: EventId, orderId: OrderId };

/**
 * An attempt is about to be handed to the provider: recorded first, so that a crash before the
 * provider's answer is known leaves a trace instead of a silent resend. `template` names the
 * template and brand the content was rendered with; `personal` is the content itself.
 */
export const MailQueued = defineEvent(
  "MailQueued",
  1,
  Schema.Struct({
    ...mailRef,
    purpose: MailPurpose,
    provider: MailProvider,
    transport: MailTransport,
    attempt: Attempt,
    /** Our own Message-ID header, the same for every copy of this attempt. */
    messageId: NonEmptyText,
    template: NonEmptyText,
    /** The sender as the customer saw it: the brand's name and our address. */
    from: NonEmptyText,
    personal: personalData({ to: EmailAddress, subject: NonEmptyText, text: Schema.String, html: Schema.String }),
  }),
);
export type MailQueued = typeof MailQueued.schema.Type;

/** The provider accepted the attempt and gave it this id. */
export const MailSent = defineEvent(
  "MailSent",
  1,
  Schema.Struct({ ...mailRef, attempt: Attempt, transport: MailTransport, providerMessageId: NonEmptyText }),
);
export type MailSent = typeof MailSent.schema.Type;

/**
 * The provider refused the attempt or could not be reached. While `retryAt` is set another attempt
 * follows then; without it the mail stays failed until someone presses Retry. `reason` is the
 * provider's answer with any address in it replaced. Version 2 seals it: a provider's answer is
 * free text about the recipient (servers quote names and mailbox details in it, not only
 * addresses), so it is erased with the mail; version 1 kept it in the clear.
 */
export const MailFailed = defineEvent(
  "MailFailed",
  2,
  Schema.Struct({ ...mailRef, attempt: Attempt, personal: personalData({ reason: NonEmptyText }), retryAt: Schema.optionalKey(IsoDateTime) }),
);
export type MailFailed = typeof MailFailed.schema.Type;

/**
 * An attempt was recorded but its outcome never was (the sender stopped in between). No provider
 * offers an idempotency key, so it is not sent again blindly: the provider's delivery report
 * settles it, or staff decide with Retry.
 */
export const MailOutcomeUnknown = defineEvent(
  "MailOutcomeUnknown",
  1,
  Schema.Struct({ ...mailRef, attempt: Attempt }),
);
export type MailOutcomeUnknown = typeof MailOutcomeUnknown.schema.Type;

/** Delivery reports come from the provider (SES through SNS, SendGrid's Event Webhook). */
const deliveryReport = {
  ...mailRef,
  transport: Schema.Literals(["ses", "sendgrid"]),
  /** The provider's id of the report, so that a repeated report changes nothing. */
  providerEventId: NonEmptyText,
  /** When the provider says it happened. */
  reportedAt: IsoDateTime,
};

/** The receiving server accepted the mail. */
export const MailDelivered = defineEvent("MailDelivered", 1, Schema.Struct(deliveryReport));
export type MailDelivered = typeof MailDelivered.schema.Type;

/** The mail bounced; `reason` is the provider's diagnosis with any address in it replaced. */
export const MailBounced = defineEvent(
  "MailBounced",
  1,
  Schema.Struct({ ...deliveryReport, permanent: Schema.Boolean, reason: NonEmptyText }),
);
export type MailBounced = typeof MailBounced.schema.Type;

/** The recipient marked the mail as spam. */
export const MailComplained = defineEvent("MailComplained", 1, Schema.Struct(deliveryReport));
export type MailComplained = typeof MailComplained.schema.Type;

/** A staff member pressed Retry on a failed mail, or on one whose outcome is unknown. */
export const MailRetryRequested = defineEvent(
  "MailRetryRequested",
  1,
  Schema.Struct({ ...mailRef, requestedBy: StaffRef }),
);
export type MailRetryRequested = typeof MailRetryRequested.schema.Type;

/** Every event type a mail stream may hold (the catalogue reads this list). */
export const MAIL_EVENTS = [
  MailQueued,
  MailSent,
  MailFailed,
  MailOutcomeUnknown,
  MailDelivered,
  MailBounced,
  MailComplained,
  MailRetryRequested,
] as const;
