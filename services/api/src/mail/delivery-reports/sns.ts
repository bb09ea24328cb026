import { createVerify, X509Certificate } from "node:crypto";
import { isoInstant, mailIds, providerId, STATUS_CODE, type DeliveryReport, type ParsedReports } from "./delivery-report.ts";

/*
 * SES delivery reports arrive through Amazon SNS (ADR 0019). SNS signs every message it posts with
 * the key of a certificate it publishes on its own host; a message is believed only when that
 * signature verifies against that certificate, the message is for our topic and it is recent.
 * The string SNS signs is, per message type, a fixed list of `Name\nvalue\n` pairs (AWS, "Verifying
 * the signatures of Amazon SNS messages"): SignatureVersion 1 signs it with SHA1withRSA, 2 with
 * SHA256withRSA.
 */

type SnsMessageType = "Notification" | "SubscriptionConfirmation" | "UnsubscribeConfirmation";

export interface SnsMessage {
  readonly Type: SnsMessageType;
  readonly MessageId: string;
  readonly TopicArn: string;
  readonly Message: string;
  readonly Timestamp: string;
  readonly SignatureVersion: string;
  readonly Signature: string;
  readonly SigningCertURL: string;
  readonly Subject?: string | undefined;
  readonly SubscribeURL?: string | undefined;
  readonly Token?: string | undefined;
}

const TYPES: readonly string[] = ["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"];
const REQUIRED = ["MessageId", "TopicArn", "Message", "Timestamp", "SignatureVersion", "Signature", "SigningCertURL"] as const;

/** An SNS message as posted (JSON sent as text/plain); undefined when the body is not one. */
export const parseSnsMessage = (body: string): SnsMessage | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const fields = value as Record<string, unknown>;
  if (typeof fields.Type !== "string" || !TYPES.includes(fields.Type)) return undefined;
  if (REQUIRED.some((name) => typeof fields[name] !== "string")) return undefined;
  for (const optional of ["Subject", "SubscribeURL", "Token"]) {
    if (fields[optional] !== undefined && fields[optional] !== null && typeof fields[optional] !== "string") return undefined;
  }
  if (fields.Type !== "Notification" && (typeof fields.SubscribeURL !== "string" || typeof fields.Token !== "string")) return undefined;
  return value as SnsMessage;
};

/**
 * SNS's own hosts: a region's SNS endpoint (sns.us-east-1.amazonaws.com, and the China
 * partition's). A looser pattern would also match other AWS services' names for buckets or APIs
 * called "sns" (sns.s3.amazonaws.com), which anyone may own.
 */
const SNS_HOST = /^sns\.[a-z]{2}(-[a-z]+)+-\d\.amazonaws\.com(\.cn)?$/;

/**
 * A URL on an SNS host over HTTPS, and nothing that would let it point elsewhere (another port,
 * credentials). `pem` also asks for a certificate file's path.
 */
export const isSnsUrl = (text: string, pem = false): boolean => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  return (
    url.protocol === "https:" &&
    url.port === "" &&
    url.username === "" &&
    url.password === "" &&
    SNS_HOST.test(url.hostname) &&
    (!pem || url.pathname.endsWith(".pem"))
  );
};

const SIGNED_FIELDS: Record<SnsMessageType, readonly (keyof SnsMessage)[]> = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
};

/** The bytes SNS signed: each field of the type's list that the message has, as `Name\nvalue\n`. */
const snsStringToSign = (message: SnsMessage): string =>
  SIGNED_FIELDS[message.Type]
    .filter((name) => typeof message[name] === "string")
    .map((name) => `${name}\n${message[name] as string}\n`)
    .join("");

type SnsVerdict =
  | { readonly ok: true }
  /** `unavailable`: the certificate could not be fetched now; SNS should try again later. */
  | { readonly ok: false; readonly reason: string; readonly unavailable?: true };

interface SnsVerifierOptions {
  /** SES_SNS_TOPIC_ARN: the only topic whose messages are believed. */
  readonly topicArn: string;
  /** The certificate (PEM) at an SNS URL; the network edge, injected so tests serve their own. */
  readonly fetchCertificate: (url: string) => Promise<string>;
  readonly now: () => Date;
}

/**
 * How old a message may be. SNS keeps a message's Timestamp across its retries, and an HTTP/S
 * delivery policy retries for at most 3,600 seconds (AWS, "Amazon SNS message delivery retries"),
 * so anything older is a replay of a message that was captured; five minutes allow for clocks.
 */
const SNS_MAX_AGE_MS = 65 * 60_000;
const CLOCK_SKEW_MS = 5 * 60_000;
/** SNS signs with a handful of certificates; a few more than that are kept. */
const CERTIFICATE_CACHE_SIZE = 16;

interface SnsVerifier {
  verify(message: SnsMessage): Promise<SnsVerdict>;
}

export const createSnsVerifier = (options: SnsVerifierOptions): SnsVerifier => {
  // By URL, as promises so concurrent messages share one fetch; a failed fetch is forgotten.
  const certificates = new Map<string, Promise<X509Certificate>>();
  const certificate = (url: string): Promise<X509Certificate> => {
    const cached = certificates.get(url);
    if (cached) return cached;
    if (certificates.size >= CERTIFICATE_CACHE_SIZE) certificates.delete(certificates.keys().next().value!);
    const loading = options.fetchCertificate(url).then((pem) => new X509Certificate(pem));
    certificates.set(url, loading);
    loading.catch(() => certificates.delete(url));
    return loading;
  };

  return {
    async verify(message) {
      if (message.SignatureVersion !== "1" && message.SignatureVersion !== "2") {
        return { ok: false, reason: `signature version ${JSON.stringify(message.SignatureVersion)} is not 1 or 2` };
      }
      if (!isSnsUrl(message.SigningCertURL, true)) return { ok: false, reason: "the signing certificate is not on an SNS host" };
      if (message.TopicArn !== options.topicArn) return { ok: false, reason: "the message is for another topic" };
      const sent = Date.parse(message.Timestamp);
      const now = options.now().getTime();
      if (Number.isNaN(sent) || now - sent > SNS_MAX_AGE_MS || sent - now > CLOCK_SKEW_MS) {
        return { ok: false, reason: "the message's Timestamp is missing, too old or in the future" };
      }
      let cert: X509Certificate;
      try {
        cert = await certificate(message.SigningCertURL);
      } catch (error) {
        console.error(`SNS signing certificate ${message.SigningCertURL} could not be fetched`, error);
        return { ok: false, reason: "the signing certificate could not be fetched", unavailable: true };
      }
      if (now < Date.parse(cert.validFrom) || now > Date.parse(cert.validTo)) return { ok: false, reason: "the signing certificate has expired" };
      const verifier = createVerify(message.SignatureVersion === "1" ? "RSA-SHA1" : "RSA-SHA256");
      verifier.update(snsStringToSign(message), "utf8");
      let valid = false;
      try {
        valid = verifier.verify(cert.publicKey, message.Signature, "base64");
      } catch {
        valid = false;
      }
      return valid ? { ok: true } : { ok: false, reason: "the signature does not verify" };
    },
  };
};

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined);
const firstTag = (tags: Json | undefined, name: string): unknown => {
  const values = tags?.[name];
  return Array.isArray(values) ? values[0] : undefined;
};

/**
 * SES's verdict on a bounce, as codes only: its bounce type and sub-type and the first
 * recipient's enhanced status code. The free-text diagnosis is left out: receiving servers quote
 * names and addresses in it, and these events are not sealed (an erased order's would keep them).
 */
const bounceReason = (bounce: Json): string | undefined => {
  const recipients = Array.isArray(bounce.bouncedRecipients) ? bounce.bouncedRecipients : [];
  const status = recipients.map((recipient) => object(recipient)?.status).find((code): code is string => typeof code === "string" && STATUS_CODE.test(code));
  const kind = [bounce.bounceType, bounce.bounceSubType].filter((part): part is string => typeof part === "string" && /^[A-Za-z]{1,40}$/.test(part)).join("/");
  const text = [kind, status ? `(${status})` : ""].filter(Boolean).join(" ");
  return text || undefined;
};

/**
 * The delivery report in a verified SNS Notification from SES: configuration-set event publishing
 * (`eventType`) or identity notifications (`notificationType`); Delivery, Bounce and Complaint move
 * a mail, other kinds (Send, Reject, DeliveryDelay, Open, Click…) are set aside. The mail is named
 * by the message tags the SES adapter sends (`eventId`, `orderId`); SES publishes tags with event
 * publishing only, so an identity notification without them is set aside too. The SNS MessageId,
 * which SNS keeps across its retries, is the report's id.
 */
export const sesReportsFrom = (message: SnsMessage): ParsedReports => {
  let body: Json | undefined;
  try {
    body = object(JSON.parse(message.Message));
  } catch {
    body = undefined;
  }
  if (!body) return { reports: [], skipped: ["a message that is not an SES notification"] };
  const kind = body.eventType ?? body.notificationType;
  if (kind !== "Delivery" && kind !== "Bounce" && kind !== "Complaint") return { reports: [], skipped: [`an SES ${String(kind)} event`] };
  const tags = object(object(body.mail)?.tags);
  const ids = mailIds(firstTag(tags, "eventId"), firstTag(tags, "orderId"));
  const providerEventId = providerId(message.MessageId);
  if (!ids || !providerEventId) return { reports: [], skipped: [`an SES ${kind} event without our mail's tags`] };
  const detail = object(body[kind.toLowerCase()]) ?? {};
  const timestamp = typeof detail.timestamp === "string" ? detail.timestamp : undefined;
  const reportedAt = isoInstant(timestamp) ?? isoInstant(message.Timestamp)!;
  const common = { ...ids, transport: "ses" as const, providerEventId, reportedAt };
  const report: DeliveryReport =
    kind === "Delivery"
      ? { ...common, outcome: "delivered" }
      : kind === "Complaint"
        ? { ...common, outcome: "complained" }
        : { ...common, outcome: "bounced", permanent: detail.bounceType === "Permanent", reason: bounceReason(detail) };
  return { reports: [report], skipped: [] };
};
