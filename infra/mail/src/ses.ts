import { SESClient, SendRawEmailCommand, SESServiceException } from "@aws-sdk/client-ses";
import { composeMime } from "./mime.ts";
import { MailRejected, MailUnavailable, refuseUnaddressable, type Mailer, type OutgoingMail, type SentMail } from "./port.ts";

export interface SesSettings {
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** Another SES endpoint (the local emulator in tests); the region's own when unset. */
  readonly endpoint?: string | undefined;
}

/**
 * SES answers that no retry can change: the message or an address refused, a parameter SES will
 * never accept, a sender identity that is not verified. Everything else (throttling, sending
 * paused, 5xx, network, credentials) may pass later.
 */
const PERMANENT = new Set(["MessageRejected", "MailFromDomainNotVerifiedException", "InvalidParameterValue", "ValidationError"]);

/**
 * SES through `@aws-sdk/client-ses` (ADR 0016): SendRawEmail, because the v1 API's simple
 * SendEmail carries no attachments, and raw bytes keep our Message-ID and the same MIME the
 * outbox writes. The SDK's own retries are off (`maxAttempts: 1`): a retry after a lost answer
 * would send the mail a second time behind the reactor's back; the reactor retries instead.
 */
export const sesMailer = (settings: SesSettings): Mailer => {
  const client = new SESClient({
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
  return {
    transport: "ses",
    async send(mail: OutgoingMail): Promise<SentMail> {
      refuseUnaddressable("ses", mail);
      const raw = await composeMime(mail);
      let answer;
      try {
        answer = await client.send(
          new SendRawEmailCommand({
            Source: mail.from,
            Destinations: [mail.to],
            RawMessage: { Data: raw },
            Tags: [
              { Name: "eventId", Value: mail.tags.eventId },
              { Name: "orderId", Value: mail.tags.orderId },
            ],
          }),
        );
      } catch (error) {
        throw classify(error);
      }
      if (!answer.MessageId) throw new MailUnavailable("ses", "SES accepted the request but returned no MessageId");
      return { transport: "ses", providerMessageId: answer.MessageId };
    },
  };
};

const classify = (error: unknown): MailRejected | MailUnavailable => {
  if (error instanceof SESServiceException) {
    const text = `${error.name}: ${error.message}`;
    return PERMANENT.has(error.name) ? new MailRejected("ses", text, { cause: error }) : new MailUnavailable("ses", text, { cause: error });
  }
  // No answer from SES (refused connection, timeout, reset): the mail may or may not have gone.
  return new MailUnavailable("ses", error instanceof Error ? error.message || error.name : String(error), { cause: error });
};
