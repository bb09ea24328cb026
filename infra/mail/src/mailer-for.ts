import { outboxMailer } from "./outbox.ts";
import type { Mailer } from "./port.ts";
import { sendgridMailer } from "./sendgrid.ts";
import { sesMailer } from "./ses.ts";
import type { MailSettings } from "./settings.ts";

/** The provider labels of the card and the screens: "AWS" (the default) and "Sendgrid". */
export type MailProvider = "AWS" | "Sendgrid";

export interface MailerChoice {
  readonly mailer: Mailer;
  /** Where this label's mail really goes, for the log and the mail history. */
  readonly description: string;
}

/**
 * The adapter for a provider label: the provider's own when its credentials are configured, else
 * the local outbox (DESIGN §8), and a sentence saying which. Build each once at start: an adapter
 * holds its HTTP client.
 */
export const mailerFor = (provider: MailProvider, settings: MailSettings): MailerChoice => {
  if (provider === "AWS" && settings.ses) {
    const where = settings.ses.endpoint ? `the SES endpoint ${settings.ses.endpoint}` : `SES in ${settings.ses.region}`;
    return { mailer: sesMailer(settings.ses), description: `AWS mail goes to ${where}` };
  }
  if (provider === "Sendgrid" && settings.sendgrid) {
    const where = settings.sendgrid.baseUrl ? `the SendGrid API at ${settings.sendgrid.baseUrl}` : "the SendGrid API";
    return { mailer: sendgridMailer(settings.sendgrid), description: `Sendgrid mail goes to ${where}` };
  }
  const missing = provider === "AWS" ? "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY" : "SENDGRID_API_KEY";
  return { mailer: outboxMailer(settings.outboxDir), description: `${provider} mail is written to ${settings.outboxDir} (${missing} not set)` };
};
