import path from "node:path";
import { isEmailAddress } from "@etd/events/email-address";
import type { SendgridSettings } from "./sendgrid.ts";
import type { SesSettings } from "./ses.ts";

/** The mail settings, read once at start (README, "Settings"). */
export interface MailSettings {
  /** The sender of every mail. */
  readonly from: string;
  /** SES credentials; undefined means the "AWS" label writes to the outbox. */
  readonly ses: SesSettings | undefined;
  /** The SendGrid key; undefined means the "Sendgrid" label writes to the outbox. */
  readonly sendgrid: SendgridSettings | undefined;
  /** `DATA_DIR/outbox`. */
  readonly outboxDir: string;
}

/** A placeholder sender on a reserved domain (RFC 2606): nothing real is impersonated by default. */
export const DEFAULT_MAIL_FROM = "ETD Back Office <no-reply@etd.example>";

/** `name@host` or `Display Name <name@host>`, the address by the one rule. */
const isSender = (text: string): boolean => {
  const named = /^[^<>]*<([^<>]+)>$/.exec(text.trim());
  return isEmailAddress(named ? (named[1] ?? "") : text.trim());
};

const isHttpUrl = (text: string): boolean => {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
};

/**
 * Reads MAIL_FROM, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, SES_ENDPOINT,
 * SENDGRID_API_KEY and SENDGRID_BASE_URL, and returns every problem at once, each naming its
 * setting, for the API's config to report with its own. A provider is configured when its
 * credentials are; half a configuration is a problem rather than a silent fallback to the outbox.
 */
export const mailSettingsFrom = (env: NodeJS.ProcessEnv, dataDir: string): { settings: MailSettings; problems: string[] } => {
  const problems: string[] = [];

  const from = env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM;
  if (!isSender(from)) problems.push(`MAIL_FROM must be an e-mail address, optionally as "Name <address>" (got "${from}")`);

  const region = env.AWS_REGION?.trim() || undefined;
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim() || undefined;
  const sesEndpoint = env.SES_ENDPOINT?.trim() || undefined;
  let ses: SesSettings | undefined;
  if (accessKeyId || secretAccessKey) {
    if (!accessKeyId) problems.push("AWS_ACCESS_KEY_ID is required when AWS_SECRET_ACCESS_KEY is set");
    if (!secretAccessKey) problems.push("AWS_SECRET_ACCESS_KEY is required when AWS_ACCESS_KEY_ID is set");
    if (!region) problems.push("AWS_REGION is required when AWS credentials are set (the SES region, e.g. eu-west-1)");
    else if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)) problems.push(`AWS_REGION must be an AWS region such as eu-west-1 (got "${region}")`);
    if (accessKeyId && secretAccessKey && region) ses = { region, accessKeyId, secretAccessKey, endpoint: sesEndpoint };
  } else if (sesEndpoint) {
    problems.push("SES_ENDPOINT is set but AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not (without them mail goes to the outbox)");
  }
  if (sesEndpoint && !isHttpUrl(sesEndpoint)) problems.push(`SES_ENDPOINT must be an http:// or https:// URL (got "${sesEndpoint}")`);

  const apiKey = env.SENDGRID_API_KEY?.trim() || undefined;
  const sendgridBaseUrl = env.SENDGRID_BASE_URL?.trim() || undefined;
  let sendgrid: SendgridSettings | undefined;
  if (apiKey) {
    if (!apiKey.startsWith("SG.")) problems.push('SENDGRID_API_KEY must be a SendGrid API key (it starts with "SG.")');
    else sendgrid = { apiKey, baseUrl: sendgridBaseUrl };
  } else if (sendgridBaseUrl) {
    problems.push("SENDGRID_BASE_URL is set but SENDGRID_API_KEY is not (without it mail goes to the outbox)");
  }
  if (sendgridBaseUrl && !isHttpUrl(sendgridBaseUrl)) problems.push(`SENDGRID_BASE_URL must be an http:// or https:// URL (got "${sendgridBaseUrl}")`);

  return { settings: { from, ses, sendgrid, outboxDir: path.join(dataDir, "outbox") }, problems };
};
