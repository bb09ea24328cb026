import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/*
 * The providers' side of the webhooks, for tests: an SNS signing certificate of our own and
 * SendGrid's ECDSA key pair, signing the way AWS and SendGrid document it. The strings to sign are
 * written out here on their own, not taken from the code under test, so a mistake there fails.
 */

/** A self-signed RSA certificate made with the openssl CLI (node:crypto cannot issue certificates). */
export const makeSigningCertificate = (): { certificatePem: string; privateKey: string } => {
  const dir = mkdtempSync(path.join(tmpdir(), "etd-sns-cert-"));
  try {
    const keyFile = path.join(dir, "key.pem");
    const certFile = path.join(dir, "cert.pem");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-subj", "/CN=sns.amazonaws.com", "-days", "2"], { stdio: "ignore" });
    return { certificatePem: readFileSync(certFile, "utf8"), privateKey: readFileSync(keyFile, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

export const TOPIC_ARN = "arn:aws:sns:us-east-1:123456789012:etd-ses-events";
export const CERT_URL = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0000000000000000000000.pem";

export interface SnsFields {
  Type: "Notification" | "SubscriptionConfirmation" | "UnsubscribeConfirmation";
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  Subject?: string;
  SubscribeURL?: string;
  Token?: string;
}

/** AWS's string to sign: Notification and the two subscription messages list different fields. */
const awsStringToSign = (m: SnsFields): string =>
  m.Type === "Notification"
    ? `Message\n${m.Message}\nMessageId\n${m.MessageId}\n${m.Subject === undefined ? "" : `Subject\n${m.Subject}\n`}Timestamp\n${m.Timestamp}\nTopicArn\n${m.TopicArn}\nType\n${m.Type}\n`
    : `Message\n${m.Message}\nMessageId\n${m.MessageId}\nSubscribeURL\n${m.SubscribeURL}\nTimestamp\n${m.Timestamp}\nToken\n${m.Token}\nTopicArn\n${m.TopicArn}\nType\n${m.Type}\n`;

/** The message as SNS posts it, signed with `privateKey` (SignatureVersion 1: SHA1, 2: SHA256). */
export const signSns = (fields: SnsFields, privateKey: string, options: { version?: "1" | "2"; certUrl?: string } = {}): Record<string, string> => {
  const version = options.version ?? "2";
  const signature = createSign(version === "1" ? "RSA-SHA1" : "RSA-SHA256").update(awsStringToSign(fields), "utf8").sign(privateKey, "base64");
  return { ...fields, SignatureVersion: version, Signature: signature, SigningCertURL: options.certUrl ?? CERT_URL };
};

/** An SES event as configuration-set event publishing sends it through SNS, with our message tags. */
export const sesEvent = (
  kind: "Delivery" | "Bounce" | "Complaint" | "Send",
  mail: { mailId: string; orderId: string },
  options: { form?: "eventType" | "notificationType"; at?: string; bounce?: Record<string, unknown>; tags?: boolean } = {},
): string => {
  const at = options.at ?? new Date().toISOString();
  const detail =
    kind === "Delivery"
      ? { delivery: { timestamp: at, processingTimeMillis: 812, recipients: ["ann@example.com"], smtpResponse: "250 ok", reportingMTA: "a8-1.smtp-out.amazonses.com" } }
      : kind === "Bounce"
        ? {
            bounce: {
              bounceType: "Permanent",
              bounceSubType: "General",
              bouncedRecipients: [{ emailAddress: "ann@example.com", action: "failed", status: "5.1.1", diagnosticCode: "smtp; 550 5.1.1 <ann@example.com>: Recipient address rejected" }],
              timestamp: at,
              feedbackId: "0100017-feedback",
              ...options.bounce,
            },
          }
        : kind === "Complaint"
          ? { complaint: { complainedRecipients: [{ emailAddress: "ann@example.com" }], timestamp: at, feedbackId: "0100017-complaint" } }
          : { send: {} };
  return JSON.stringify({
    [options.form ?? "eventType"]: kind,
    mail: {
      timestamp: at,
      source: "no-reply@etd.example",
      messageId: "010001-ses-message-id",
      destination: ["ann@example.com"],
      ...(options.tags === false ? {} : { tags: { "ses:configuration-set": ["etd"], eventId: [mail.mailId], orderId: [mail.orderId] } }),
    },
    ...detail,
  });
};

export const snsNotification = (message: string, overrides: Partial<SnsFields> = {}): SnsFields => ({
  Type: "Notification",
  MessageId: randomUUID(),
  TopicArn: TOPIC_ARN,
  Message: message,
  Timestamp: new Date().toISOString(),
  ...overrides,
});

/** SendGrid's key pair: the public half as its settings show it (base64 DER SubjectPublicKeyInfo). */
export const makeSendgridKeys = (): { publicKeyBase64: string; privateKey: KeyObject } => {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  return { publicKeyBase64: publicKey.export({ format: "der", type: "spki" }).toString("base64"), privateKey };
};

/** The two headers SendGrid adds: a timestamp in seconds and the DER signature of timestamp + body. */
export const signSendgrid = (body: string, privateKey: KeyObject, timestamp = String(Math.floor(Date.now() / 1000))): Record<string, string> => ({
  "X-Twilio-Email-Event-Webhook-Timestamp": timestamp,
  "X-Twilio-Email-Event-Webhook-Signature": createSign("sha256").update(timestamp + body).sign(privateKey, "base64"),
});
