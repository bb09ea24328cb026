import { isEmailAddress } from "@etd/events/email-address";

/**
 * The Mailer port (DESIGN §8, ADR 0016): one shape for every way a mail leaves the system. The
 * mail reactor records an attempt before `send` and the provider's message id after, so the port
 * keeps to what that bookkeeping needs: our own Message-ID in, the provider's id out, and two
 * error classes that say whether trying again can help.
 */

export interface MailAttachment {
  readonly fileName: string;
  readonly contentType: string;
  readonly content: Buffer;
}

export interface OutgoingMail {
  /**
   * Our own Message-ID, stable per mail-requesting event, so that a copy the provider reports back
   * can be matched to the event that asked for it. With or without the angle brackets.
   */
  readonly messageId: string;
  readonly from: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly attachments?: readonly MailAttachment[];
  /** Ids only, never personal data: they travel to the provider as SendGrid custom_args and SES message tags. */
  readonly tags: { readonly eventId: string; readonly orderId: string };
}

export type MailTransport = "ses" | "sendgrid" | "outbox";

export interface SentMail {
  readonly transport: MailTransport;
  /** The provider's id for the accepted mail (SES MessageId, SendGrid X-Message-Id, the outbox's file name). */
  readonly providerMessageId: string;
}

export interface Mailer {
  readonly transport: MailTransport;
  send(mail: OutgoingMail): Promise<SentMail>;
}

/**
 * The provider refused this mail for good (a malformed or refused address, refused content, a
 * request it will never accept): sending it again changes nothing, so the reactor marks it failed.
 */
export class MailRejected extends Error {
  override readonly name = "MailRejected";
  readonly transport: MailTransport;
  /** The provider's own words, shown to staff in Email History. */
  readonly providerText: string;
  constructor(transport: MailTransport, providerText: string, options?: { cause?: unknown }) {
    super(`${transport} rejected the mail: ${providerText}`, options);
    this.transport = transport;
    this.providerText = providerText;
  }
}

/**
 * A recipient the one address rule refuses (a comma, a second '@', a display name, …) is refused
 * here for good, before any provider sees it: SES and SendGrid would refuse it too, or worse, read
 * it as several recipients. Each adapter asks first, so the outbox refuses what a provider would.
 */
export const refuseUnaddressable = (transport: MailTransport, mail: OutgoingMail): void => {
  if (!isEmailAddress(mail.to)) throw new MailRejected(transport, "The recipient is not an e-mail address a mail can go to.");
};

/**
 * The mail may go through later (network, timeouts, 5xx, throttling), or the outcome is unknown:
 * the reactor retries with backoff, and settles an unknown outcome from the provider's delivery
 * events before sending again.
 */
export class MailUnavailable extends Error {
  override readonly name = "MailUnavailable";
  readonly transport: MailTransport;
  readonly providerText: string;
  constructor(transport: MailTransport, providerText: string, options?: { cause?: unknown }) {
    super(`${transport} is unavailable: ${providerText}`, options);
    this.transport = transport;
    this.providerText = providerText;
  }
}
