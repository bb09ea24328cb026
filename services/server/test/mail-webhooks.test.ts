import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import type { ApiDeps } from "@etd/api/internal/api-deps.ts";
import { ConfigError, readConfig } from "../src/config.ts";
import { readSendgridPublicKey } from "@etd/api/internal/mail/delivery-reports/sendgrid-key.ts";
import { sendgridReportsFrom, verifySendgridRequest } from "@etd/api/internal/mail/delivery-reports/sendgrid.ts";
import { mountMailWebhooks } from "@etd/api/internal/routes/mail-webhook-routes.ts";
import { createSnsVerifier, isSnsUrl, parseSnsMessage, sesReportsFrom, type SnsMessage } from "@etd/api/internal/mail/delivery-reports/sns.ts";
import { CERT_URL, TOPIC_ARN, makeSendgridKeys, makeSigningCertificate, sesEvent, signSns, snsNotification } from "./support/webhook-signers.ts";

/*
 * Issue 12 "Webhooks" (ORDER-2's Email History states), the parts that need no database: the
 * signature checks and how each provider's events become delivery reports.
 */

const MAIL = { mailId: randomUUID(), orderId: "100234" };

describe("SendGrid's Signed Event Webhook (issue 12 Webhooks)", () => {
  // SendGrid's own published test vector (sendgrid-nodejs, packages/eventwebhook, eventwebhook.spec.js).
  const VECTOR = {
    publicKey: "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA==",
    signature: "MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH2j/0=",
    timestamp: "1588788367",
    body: JSON.stringify({ category: "example_payload", event: "test_event", message_id: "message_id" }),
  };
  const check = (overrides: Partial<typeof VECTOR> = {}, now = new Date(Number(VECTOR.timestamp) * 1000 + 30_000)) => {
    const v = { ...VECTOR, ...overrides };
    return verifySendgridRequest({ publicKey: readSendgridPublicKey(v.publicKey), signature: v.signature, timestamp: v.timestamp, body: Buffer.from(v.body), now }).ok;
  };

  it("accepts SendGrid's published signature and refuses a changed body, key, signature or an old timestamp", () => {
    expect(check()).toBe(true);
    expect(check({ body: VECTOR.body.replace("test_event", "delivered") })).toBe(false);
    expect(check({ publicKey: makeSendgridKeys().publicKeyBase64 })).toBe(false);
    expect(check({ signature: VECTOR.signature.replace("H2j", "H3j") })).toBe(false);
    expect(check({ timestamp: "1588788368" })).toBe(false);
    // The same signed request eleven minutes later is a replay.
    expect(check({}, new Date(Number(VECTOR.timestamp) * 1000 + 11 * 60_000))).toBe(false);
    expect(check({}, new Date(Number(VECTOR.timestamp) * 1000 - 10 * 60_000))).toBe(false);
  });

  it("turns delivered, bounce, blocked, dropped and spamreport into reports and sets the rest aside, without addresses", () => {
    const base = { email: "ann@example.com", timestamp: 1_764_000_000, eventId: MAIL.mailId, orderId: MAIL.orderId };
    const { reports, skipped } = sendgridReportsFrom(
      [
        { ...base, event: "processed", sg_event_id: "e0" },
        { ...base, event: "delivered", sg_event_id: "e1" },
        { ...base, event: "bounce", type: "bounce", status: "5.1.1", reason: "550 5.1.1 <ann@example.com>: no such user Ann Lee", sg_event_id: "e2" },
        { ...base, event: "bounce", type: "blocked", reason: "421 try later", sg_event_id: "e3" },
        { ...base, event: "dropped", reason: "Bounced Address", sg_event_id: "e4" },
        { ...base, event: "spamreport", sg_event_id: "e5" },
        { ...base, event: "open", sg_event_id: "e6" },
        { ...base, event: "delivered", eventId: "not-a-uuid", sg_event_id: "e7" },
        { ...base, event: "delivered" },
      ],
      "1764000100",
    );
    expect(reports.map((r) => [r.providerEventId, r.outcome, r.permanent, r.reason])).toEqual([
      ["e1", "delivered", undefined, undefined],
      ["e2", "bounced", true, "bounce (5.1.1)"],
      ["e3", "bounced", false, "blocked"],
      ["e4", "bounced", true, "dropped"],
      ["e5", "complained", undefined, undefined],
    ]);
    expect(reports[0]).toMatchObject({ ...MAIL, transport: "sendgrid", reportedAt: new Date(1_764_000_000_000).toISOString() });
    expect(skipped).toHaveLength(4);
    expect(JSON.stringify(reports)).not.toContain("ann@example.com");
    // The receiving server's free text (names, addresses) is never kept: these events are not sealed.
    expect(JSON.stringify(reports)).not.toContain("Ann Lee");
  });

  it("reads the key as SendGrid shows it and refuses anything else at start (config)", () => {
    expect(readSendgridPublicKey(makeSendgridKeys().publicKeyBase64).asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    const problems = (env: NodeJS.ProcessEnv) => {
      try {
        readConfig({ DEMO: "1", ...env });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ SENDGRID_WEBHOOK_PUBLIC_KEY: makeSendgridKeys().publicKeyBase64, SES_SNS_TOPIC_ARN: TOPIC_ARN })).toEqual([]);
    expect(problems({ SENDGRID_WEBHOOK_PUBLIC_KEY: "not-a-key!" })).toEqual([expect.stringMatching(/^SENDGRID_WEBHOOK_PUBLIC_KEY is not base64/)]);
    expect(problems({ SENDGRID_WEBHOOK_PUBLIC_KEY: "AAAA" })).toEqual([expect.stringMatching(/^SENDGRID_WEBHOOK_PUBLIC_KEY is not a public key/)]);
    expect(problems({ SES_SNS_TOPIC_ARN: "ses-events" })).toEqual([expect.stringMatching(/^SES_SNS_TOPIC_ARN must be an SNS topic ARN/)]);
  });
});

describe("SES notifications through SNS (issue 12 Webhooks)", () => {
  const { certificatePem, privateKey } = makeSigningCertificate();
  const verifierWith = (fetched: string[] = []) =>
    createSnsVerifier({
      topicArn: TOPIC_ARN,
      fetchCertificate: async (url) => {
        fetched.push(url);
        return certificatePem;
      },
      now: () => new Date(),
    });
  const parsed = (fields: Record<string, string>) => parseSnsMessage(JSON.stringify(fields))!;

  it("only trusts certificates on SNS's own hosts over HTTPS", () => {
    expect(isSnsUrl(CERT_URL, true)).toBe(true);
    expect(isSnsUrl("https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-abc.pem", true)).toBe(true);
    for (const url of [
      "http://sns.us-east-1.amazonaws.com/cert.pem",
      "https://sns.us-east-1.amazonaws.com.evil.example/cert.pem",
      "https://evil.example/sns.us-east-1.amazonaws.com/cert.pem",
      "https://sns.us-east-1.amazonaws.com:8443/cert.pem",
      "https://user@sns.us-east-1.amazonaws.com/cert.pem",
      "https://sns.us-east-1.amazonaws.com/cert.txt",
      "https://s3.us-east-1.amazonaws.com/cert.pem",
      // Other services' names for a bucket or an API called "sns", which anyone may own.
      "https://sns.s3.amazonaws.com/cert.pem",
      "https://sns.s3-accelerate.amazonaws.com/cert.pem",
      "https://sns.execute-api.us-east-1.amazonaws.com/cert.pem",
    ]) {
      expect(isSnsUrl(url, true), url).toBe(false);
    }
  });

  it("verifies SignatureVersion 1 (SHA1) and 2 (SHA256), with and without a Subject, fetching the certificate once", async () => {
    const fetched: string[] = [];
    const sns = verifierWith(fetched);
    for (const version of ["1", "2"] as const) {
      expect(await sns.verify(parsed(signSns(snsNotification("{}"), privateKey, { version })))).toEqual({ ok: true });
      expect(await sns.verify(parsed(signSns(snsNotification("{}", { Subject: "Amazon SES Email Event Notification" }), privateKey, { version })))).toEqual({ ok: true });
    }
    const confirmation = signSns(
      { Type: "SubscriptionConfirmation", MessageId: randomUUID(), TopicArn: TOPIC_ARN, Message: "You have chosen to subscribe.", Timestamp: new Date().toISOString(), SubscribeURL: "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=t", Token: "t" },
      privateKey,
    );
    expect(await sns.verify(parsed(confirmation))).toEqual({ ok: true });
    expect(fetched).toEqual([CERT_URL]);
  });

  it("refuses another topic, an old or future Timestamp, a changed field, another signer and an unknown version", async () => {
    const sns = verifierWith();
    const refused = async (fields: Record<string, string>) => (await sns.verify(parsed(fields))).ok;
    expect(await refused(signSns(snsNotification("{}", { TopicArn: "arn:aws:sns:us-east-1:123456789012:other" }), privateKey))).toBe(false);
    expect(await refused(signSns(snsNotification("{}", { Timestamp: new Date(Date.now() - 70 * 60_000).toISOString() }), privateKey))).toBe(false);
    expect(await refused(signSns(snsNotification("{}", { Timestamp: new Date(Date.now() + 10 * 60_000).toISOString() }), privateKey))).toBe(false);
    expect(await refused({ ...signSns(snsNotification('{"a":1}'), privateKey), Message: '{"a":2}' })).toBe(false);
    expect(await refused(signSns(snsNotification("{}"), makeSigningCertificate().privateKey))).toBe(false);
    expect(await refused({ ...signSns(snsNotification("{}"), privateKey), SignatureVersion: "3" })).toBe(false);
  });

  it("answers 'unavailable' when the certificate cannot be fetched, so SNS tries again", async () => {
    const sns = createSnsVerifier({ topicArn: TOPIC_ARN, fetchCertificate: () => Promise.reject(new Error("offline")), now: () => new Date() });
    expect(await sns.verify(parsed(signSns(snsNotification("{}"), privateKey)))).toMatchObject({ ok: false, unavailable: true });
  });

  it("reads Delivery, Bounce and Complaint in both forms, names the mail by its tags, and keeps addresses out", () => {
    const at = "2026-11-24T10:00:00.123Z";
    const report = (message: string, id = "sns-1") => sesReportsFrom({ ...snsNotification(message, { MessageId: id }) } as SnsMessage);
    expect(report(sesEvent("Delivery", MAIL, { at })).reports).toEqual([
      { ...MAIL, transport: "ses", outcome: "delivered", providerEventId: "sns-1", reportedAt: at },
    ]);
    expect(report(sesEvent("Delivery", MAIL, { at, form: "notificationType" })).reports).toHaveLength(1);
    const [bounce] = report(sesEvent("Bounce", MAIL, { at })).reports;
    expect(bounce).toMatchObject({ outcome: "bounced", permanent: true, reason: "Permanent/General (5.1.1)" });
    const [soft] = report(sesEvent("Bounce", MAIL, { bounce: { bounceType: "Transient", bounceSubType: "MailboxFull", bouncedRecipients: [{ emailAddress: "ann@example.com" }] } })).reports;
    expect(soft).toMatchObject({ outcome: "bounced", permanent: false, reason: "Transient/MailboxFull" });
    expect(report(sesEvent("Complaint", MAIL)).reports[0]).toMatchObject({ outcome: "complained" });
    // Sends move no mail; identity notifications carry no tags, so they name no mail of ours.
    expect(report(sesEvent("Send", MAIL)).reports).toEqual([]);
    expect(report(sesEvent("Delivery", MAIL, { form: "notificationType", tags: false })).reports).toEqual([]);
    expect(report(sesEvent("Delivery", { mailId: "x", orderId: MAIL.orderId })).reports).toEqual([]);
  });
});

describe("the webhooks' HTTP edge (issue 12 Webhooks)", () => {
  /** The webhooks alone on a server of their own; no store: a request that got as far as recording would fail. */
  const serve = async (mailWebhooks: ApiDeps["mailWebhooks"], run: (base: string) => Promise<void>) => {
    const app = express();
    mountMailWebhooks(app, { mailWebhooks, now: () => new Date() } as unknown as ApiDeps, { rateLimit: { limit: 2, windowMs: 60_000 } });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  };

  it("counts every request per address, forged or not, and answers 429 with Retry-After past the limit", async () => {
    const settings = { sendgridPublicKey: readSendgridPublicKey(makeSendgridKeys().publicKeyBase64), fetchCertificate: () => Promise.reject(new Error("unused")), confirmSubscription: () => Promise.resolve() };
    await serve(settings, async (base) => {
      const statuses: (number | string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${base}/api/mail/sendgrid-events`, { method: "POST", headers: { "content-type": "application/json" }, body: "[]" });
        statuses.push(response.status, response.headers.get("retry-after"));
      }
      expect(statuses).toEqual([403, null, 403, null, 429, "60"]);
      // The SES route has no topic configured here: it does not exist.
      expect((await fetch(`${base}/api/mail/ses-events`, { method: "POST", body: "{}" })).status).toBe(404);
    });
  });

  it("answers 503 (SNS tries again) when SNS's certificate cannot be fetched, and records nothing", async () => {
    const { privateKey } = makeSigningCertificate();
    const settings = { sesTopicArn: TOPIC_ARN, fetchCertificate: () => Promise.reject(new Error("offline")), confirmSubscription: () => Promise.reject(new Error("unused")) };
    await serve(settings, async (base) => {
      const response = await fetch(`${base}/api/mail/ses-events`, { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify(signSns(snsNotification(sesEvent("Delivery", MAIL)), privateKey)) });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: 0, message: "The signature cannot be checked right now. Please try again later.", data: null });
    });
  });
});
