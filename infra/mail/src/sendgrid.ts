import { Client } from "@sendgrid/client";
import { MailService } from "@sendgrid/mail";
import { bracketed } from "./mime.ts";
import { MailRejected, MailUnavailable, refuseUnaddressable, type Mailer, type OutgoingMail, type SentMail } from "./port.ts";

export interface SendgridSettings {
  readonly apiKey: string;
  /** Another API base URL (a local listener in tests); api.sendgrid.com when unset. */
  readonly baseUrl?: string | undefined;
}

/**
 * SendGrid through `@sendgrid/mail` on its own `@sendgrid/client` (ADR 0016): the client is where
 * the base URL is set, and an instance of our own keeps two mailers (or tests) from sharing the
 * packages' global singletons. `custom_args` carry the event and order ids, which SendGrid echoes
 * in its Event Webhook.
 */
export const sendgridMailer = (settings: SendgridSettings): Mailer => {
  const client = new Client();
  client.setApiKey(settings.apiKey);
  // After setApiKey, which resets the base URL to the API's region host.
  if (settings.baseUrl) client.setDefaultRequest("baseUrl", settings.baseUrl);
  const service = new MailService();
  service.setClient(client);
  service.setTimeout(30_000);
  return {
    transport: "sendgrid",
    async send(mail: OutgoingMail): Promise<SentMail> {
      refuseUnaddressable("sendgrid", mail);
      let response;
      try {
        [response] = await service.send({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: { "Message-ID": bracketed(mail.messageId) },
          customArgs: { eventId: mail.tags.eventId, orderId: mail.tags.orderId },
          attachments: (mail.attachments ?? []).map((attachment) => ({
            filename: attachment.fileName,
            type: attachment.contentType,
            content: attachment.content.toString("base64"),
            disposition: "attachment",
          })),
        });
      } catch (error) {
        throw classify(error);
      }
      const id = response.headers["x-message-id"] as unknown;
      if (typeof id !== "string" || id === "") throw new MailUnavailable("sendgrid", "SendGrid accepted the request but returned no X-Message-Id");
      return { transport: "sendgrid", providerMessageId: id };
    },
  };
};

/**
 * A 4xx is SendGrid refusing this request as it stands (bad address, content, key): permanent,
 * except 408 and 429 (timeout, rate limit), which pass later. 5xx and no answer at all are
 * transient or unknown.
 */
const classify = (error: unknown): MailRejected | MailUnavailable => {
  const status = (error as { code?: unknown }).code;
  if (typeof status === "number") {
    const text = `${status} ${providerErrors(error) || (error as Error).message}`;
    return status >= 400 && status < 500 && status !== 408 && status !== 429
      ? new MailRejected("sendgrid", text, { cause: error })
      : new MailUnavailable("sendgrid", text, { cause: error });
  }
  const text = error instanceof Error ? [(error as { code?: unknown }).code, error.message].filter(Boolean).join(" ") : String(error);
  return new MailUnavailable("sendgrid", text || "no answer", { cause: error });
};

/** SendGrid's `{errors: [{message, field}]}` body in one line. */
const providerErrors = (error: unknown): string => {
  const errors = (error as { response?: { body?: { errors?: unknown } } }).response?.body?.errors;
  if (!Array.isArray(errors)) return "";
  return errors
    .map((entry: { message?: unknown; field?: unknown }) => [entry.field, entry.message].filter((part) => typeof part === "string" && part).join(": "))
    .filter(Boolean)
    .join("; ");
};
