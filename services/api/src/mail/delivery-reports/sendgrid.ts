import { createVerify, type KeyObject } from "node:crypto";
import { isoInstant, mailIds, providerId, STATUS_CODE, type DeliveryReport, type ParsedReports } from "./delivery-report.ts";

/*
 * SendGrid's Signed Event Webhook (ADR 0019): SendGrid signs the request's timestamp header
 * followed by the raw body with ECDSA P-256 over SHA-256; the signature comes base64 (DER) in
 * X-Twilio-Email-Event-Webhook-Signature, the timestamp in X-Twilio-Email-Event-Webhook-Timestamp,
 * and the verification key is shown in SendGrid's settings as base64 DER (SubjectPublicKeyInfo).
 * The body is a JSON array of events; our custom_args (eventId, orderId) come back as top-level
 * fields of each event.
 */

export const SIGNATURE_HEADER = "x-twilio-email-event-webhook-signature";
export const TIMESTAMP_HEADER = "x-twilio-email-event-webhook-timestamp";

/** A signed request older than this is refused: a captured one cannot be played again later. */
const SENDGRID_MAX_AGE_MS = 10 * 60_000;
const CLOCK_SKEW_MS = 5 * 60_000;

type SendgridVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

export const verifySendgridRequest = (request: {
  readonly publicKey: KeyObject;
  readonly signature: string | undefined;
  readonly timestamp: string | undefined;
  readonly body: Buffer;
  readonly now: Date;
}): SendgridVerdict => {
  const { signature, timestamp } = request;
  if (!signature || !timestamp) return { ok: false, reason: "the signature or timestamp header is missing" };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "the timestamp is not a number of seconds" };
  const age = request.now.getTime() - Number(timestamp) * 1000;
  if (age > SENDGRID_MAX_AGE_MS || -age > CLOCK_SKEW_MS) return { ok: false, reason: "the timestamp is too old or in the future" };
  const verifier = createVerify("sha256");
  verifier.update(timestamp, "utf8");
  verifier.update(request.body);
  let valid = false;
  try {
    valid = verifier.verify({ key: request.publicKey, dsaEncoding: "der" }, Buffer.from(signature, "base64"));
  } catch {
    valid = false;
  }
  return valid ? { ok: true } : { ok: false, reason: "the signature does not verify" };
};

type Json = Record<string, unknown>;

/**
 * SendGrid's verdict as codes only: the kind of event and the SMTP enhanced status code. Its
 * `reason` text is left out: receiving servers quote names and addresses in it, and these events
 * are not sealed (an erased order's would keep them).
 */
const reasonOf = (event: Json): string => {
  const kind = typeof event.type === "string" && /^[a-z]{1,20}$/.test(event.type) ? event.type : String(event.event);
  const status = typeof event.status === "string" && STATUS_CODE.test(event.status) ? ` (${event.status})` : "";
  return `${kind}${status}`;
};

/**
 * The delivery reports in a verified request: delivered; bounce (permanent, or passing when
 * SendGrid says "blocked") and dropped (SendGrid will not try that address) as bounced; spamreport
 * as complained. Processed, deferred, open, click, unsubscribes and anything newer are set aside,
 * as is an event without our ids or without its sg_event_id. `signedAt` (the request's timestamp)
 * stands in for an event without its own.
 */
export const sendgridReportsFrom = (events: unknown, signedAt: string): ParsedReports => {
  if (!Array.isArray(events)) return { reports: [], skipped: ["a body that is not a list of events"] };
  const reports: DeliveryReport[] = [];
  const skipped: string[] = [];
  for (const item of events) {
    const event = typeof item === "object" && item !== null && !Array.isArray(item) ? (item as Json) : {};
    const kind = typeof event.event === "string" ? event.event : "unknown";
    if (kind !== "delivered" && kind !== "bounce" && kind !== "dropped" && kind !== "spamreport") {
      skipped.push(`a SendGrid ${kind} event`);
      continue;
    }
    const ids = mailIds(event.eventId, event.orderId);
    const providerEventId = providerId(event.sg_event_id);
    if (!ids || !providerEventId) {
      skipped.push(`a SendGrid ${kind} event without our mail's ids`);
      continue;
    }
    const seconds = typeof event.timestamp === "number" && Number.isFinite(event.timestamp) ? event.timestamp : Number(signedAt);
    const reportedAt = isoInstant(seconds * 1000) ?? isoInstant(Number(signedAt) * 1000)!;
    const common = { ...ids, transport: "sendgrid" as const, providerEventId, reportedAt };
    if (kind === "delivered") reports.push({ ...common, outcome: "delivered" });
    else if (kind === "spamreport") reports.push({ ...common, outcome: "complained" });
    else reports.push({ ...common, outcome: "bounced", permanent: !(kind === "bounce" && event.type === "blocked"), reason: reasonOf(event) });
  }
  return { reports, skipped };
};
