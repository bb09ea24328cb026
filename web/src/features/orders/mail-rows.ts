import { usEastern, type MailHistoryEntry, type MailStatus, type OrderDetails } from "@etd/contract";

/*
 * What Email History (ORDER-2, issue 12) shows for each mail, as pure rules the table draws and
 * the tests check without a browser: the state badge, how it was sent, its error, whether Retry
 * is offered, and the warning on a mail still not sent an hour after it was asked for.
 */

/** A mail not sent an hour after it was asked for is flagged to staff. */
const NOT_SENT_AFTER_MS = 60 * 60 * 1000;

export const NOT_SENT_WARNING = "Not sent after an hour";

/** The states in which nothing has reached the provider yet (or nobody knows whether it did). */
const NOT_SENT: ReadonlySet<MailStatus> = new Set<MailStatus>(["requested", "queued", "failed", "unknown"]);

export type BadgeTone = "neutral" | "progress" | "good" | "bad";

export interface MailBadge {
  readonly label: string;
  readonly tone: BadgeTone;
}

/** hh:mm AM/PM in US Eastern, as the page's other times read (001 §2). */
const easternClock = (iso: string): string => {
  const { time } = usEastern(iso);
  return `${time.slice(0, 5)}${time.slice(8)}`;
};

export const mailBadge = (mail: Pick<MailHistoryEntry, "status" | "retry_at">): MailBadge => {
  switch (mail.status) {
    case "requested":
      return { label: "Requested", tone: "neutral" };
    case "queued":
      return { label: "Queued", tone: "progress" };
    case "sent":
      return { label: "Sent", tone: "good" };
    case "delivered":
      return { label: "Delivered", tone: "good" };
    case "bounced":
      return { label: "Bounced", tone: "bad" };
    case "complained":
      return { label: "Complained", tone: "bad" };
    case "failed":
      // Another attempt follows at retry_at; without it the mail failed for good.
      return mail.retry_at === null ? { label: "Failed", tone: "bad" } : { label: `Retrying at ${easternClock(mail.retry_at)}`, tone: "progress" };
    case "unknown":
      return { label: "Outcome unknown", tone: "bad" };
  }
};

const TRANSPORT_LABEL = { ses: "AWS SES", sendgrid: "Sendgrid" } as const;

/**
 * How the mail went out. The outbox is where mail goes when the provider has no credentials: the
 * customer never receives it, and staff must know (DESIGN §8).
 */
export const transportNote = (mail: Pick<MailHistoryEntry, "transport">): string | undefined => {
  if (mail.transport === null) return undefined;
  return mail.transport === "outbox" ? "via outbox — not sent to the customer" : `via ${TRANSPORT_LABEL[mail.transport]}`;
};

/** The provider's error, for a failed or bounced mail. */
export const mailError = (mail: Pick<MailHistoryEntry, "status" | "reason">): string | undefined =>
  (mail.status === "failed" || mail.status === "bounced") && mail.reason ? mail.reason : undefined;

/**
 * Retry is offered on a mail that failed for good or whose outcome is unknown, to members who may
 * change the order (QUEUE-12, as for Resend), and not again while a Retry waits to be sent.
 */
export const mayRetry = (mail: Pick<MailHistoryEntry, "status" | "retry_at" | "retry_requested">, readOnly: boolean): boolean =>
  !readOnly && !mail.retry_requested && ((mail.status === "failed" && mail.retry_at === null) || mail.status === "unknown");

/** Still not sent an hour after it was asked for (requested, queued, failed or unknown). */
export const notSentAfterAnHour = (mail: Pick<MailHistoryEntry, "status" | "create_ts">, now: Date): boolean =>
  NOT_SENT.has(mail.status) && now.getTime() - Date.parse(mail.create_ts) >= NOT_SENT_AFTER_MS;

/** The banner above the table, or undefined when every mail went out in time. */
export const lateMailBanner = (mails: readonly Pick<MailHistoryEntry, "status" | "create_ts">[], now: Date): string | undefined => {
  const late = mails.filter((mail) => notSentAfterAnHour(mail, now)).length;
  if (late === 0) return undefined;
  return late === 1 ? "1 mail has not been sent an hour after it was asked for." : `${String(late)} mails have not been sent an hour after they were asked for.`;
};

/** Email History's rows: the document and reminder mails, and the invoices, by the time they were asked for. */
export const emailHistoryRows = (order: Pick<OrderDetails, "mailHistory" | "invoiceHistory">): readonly MailHistoryEntry[] =>
  [...order.mailHistory, ...order.invoiceHistory]
    .map((mail, index) => ({ mail, index }))
    .sort((a, b) => a.mail.create_ts.localeCompare(b.mail.create_ts) || a.index - b.index)
    .map(({ mail }) => mail);
