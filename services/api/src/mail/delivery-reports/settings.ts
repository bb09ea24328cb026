import type { KeyObject } from "node:crypto";
import { fetchCertificateOverHttps, visitSubscribeUrl } from "./https-get.ts";
import { readSendgridPublicKey } from "./sendgrid-key.ts";

/*
 * What the delivery-report webhooks need (ADR 0019). Each webhook is off, answering 404, while its
 * setting is absent: an endpoint that records reports must not exist before there is a way to tell
 * a real report from a forged one.
 */

export interface MailWebhookSettings {
  /** SES_SNS_TOPIC_ARN: the SNS topic SES publishes to. */
  readonly sesTopicArn?: string | undefined;
  /** SENDGRID_WEBHOOK_PUBLIC_KEY, read. */
  readonly sendgridPublicKey?: KeyObject | undefined;
  /** Fetches an SNS signing certificate (PEM); the network edge, replaced in tests. */
  readonly fetchCertificate: (url: string) => Promise<string>;
  /** Visits a verified SubscriptionConfirmation's SubscribeURL; replaced in tests. */
  readonly confirmSubscription: (url: string) => Promise<void>;
}

/** The settings as read from the environment (validated by `config.ts`). */
export interface MailWebhookConfig {
  readonly sesTopicArn: string | undefined;
  readonly sendgridPublicKey: string | undefined;
}

export const mailWebhookSettings = (config: Partial<MailWebhookConfig> = {}): MailWebhookSettings => ({
  sesTopicArn: config.sesTopicArn,
  sendgridPublicKey: config.sendgridPublicKey ? readSendgridPublicKey(config.sendgridPublicKey) : undefined,
  fetchCertificate: fetchCertificateOverHttps,
  confirmSubscription: visitSubscribeUrl,
});

/** An SNS topic's ARN in any partition: `arn:aws:sns:us-east-1:123456789012:ses-events`. */
const SNS_TOPIC_ARN = /^arn:aws(-cn|-us-gov)?:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/;

/** Checks both settings, adding what is wrong to `problems` (config.ts reports them all at once). */
export const readMailWebhookConfig = (env: NodeJS.ProcessEnv, problems: string[]): MailWebhookConfig => {
  const sesTopicArn = env.SES_SNS_TOPIC_ARN?.trim() || undefined;
  if (sesTopicArn !== undefined && !SNS_TOPIC_ARN.test(sesTopicArn)) {
    problems.push(`SES_SNS_TOPIC_ARN must be an SNS topic ARN like arn:aws:sns:us-east-1:123456789012:ses-events (got "${sesTopicArn}")`);
  }
  const sendgridPublicKey = env.SENDGRID_WEBHOOK_PUBLIC_KEY?.trim() || undefined;
  if (sendgridPublicKey !== undefined) {
    try {
      readSendgridPublicKey(sendgridPublicKey);
    } catch (error) {
      problems.push(`SENDGRID_WEBHOOK_PUBLIC_KEY ${(error as Error).message}: paste the verification key from SendGrid's Signed Event Webhook settings`);
    }
  }
  return { sesTopicArn, sendgridPublicKey };
};
