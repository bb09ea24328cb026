import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { postgresAvailable } from "@etd/infra/test-database";
import { EventId, mailStream, OrderId } from "@etd/events";
import { handleCommand, mailDecider } from "@etd/write";
import * as Schema from "effect/Schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@etd/api/internal/app.ts";
import { readSendgridPublicKey } from "@etd/api/internal/mail/delivery-reports/sendgrid-key.ts";
import { startTestApi, type TestApi } from "./support/test-api.ts";
import {
  CERT_URL,
  TOPIC_ARN,
  makeSendgridKeys,
  makeSigningCertificate,
  sesEvent,
  signSendgrid,
  signSns,
  snsNotification,
  type SnsFields,
} from "./support/webhook-signers.ts";

/*
 * Issue 12 "Webhooks" (ORDER-2's Email History states): signed SES (through SNS) and SendGrid
 * reports move a mail to delivered or bounced; a bad signature is refused and changes nothing; a
 * repeated report changes nothing. A real API on PostgreSQL, the webhooks configured with a topic,
 * a SendGrid key and an SNS certificate of the test's own, served through the injected fetch.
 */

const available = await postgresAvailable();

describe.skipIf(!available)("mail delivery webhooks (issue 12 Webhooks, ORDER-2)", () => {
  let api: TestApi;
  let server: Server;
  let base: string;
  let orderId: OrderId;
  const sns = makeSigningCertificate();
  const sendgrid = makeSendgridKeys();
  const fetched: string[] = [];
  const confirmed: string[] = [];

  beforeAll(async () => {
    api = await startTestApi();
    orderId = Schema.decodeSync(OrderId)((await api.placeOrders(1))[0]!);
    // The same runtime and database, served by an app whose webhooks are configured.
    const app = createApp({
      ...api.runtime.deps,
      mailWebhooks: {
        sesTopicArn: TOPIC_ARN,
        sendgridPublicKey: readSendgridPublicKey(sendgrid.publicKeyBase64),
        fetchCertificate: async (url) => {
          fetched.push(url);
          return sns.certificatePem;
        },
        confirmSubscription: async (url) => {
          confirmed.push(url);
        },
      },
    });
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await api?.close();
  });

  /** A mail the reactor has handed to a provider: queued, then accepted (MailQueued, MailSent). */
  const sentMail = async (transport: "ses" | "sendgrid"): Promise<{ mailId: EventId; orderId: OrderId }> => {
    const mailId = Schema.decodeSync(EventId)(randomUUID());
    const options = { store: api.runtime.deps.store, streamId: mailStream(mailId), metadata: { actor: { kind: "system" as const, name: "mail" }, correlationId: "test" } };
    const queued = await handleCommand(
      mailDecider,
      {
        type: "QueueMail",
        mailId,
        orderId,
        purpose: "document",
        provider: transport === "ses" ? "AWS" : "Sendgrid",
        transport,
        messageId: `${mailId}@etd.example`,
        template: "document/default",
        from: "ETD <no-reply@etd.example>",
        content: { to: "ann@example.com", subject: "Your document", text: "Attached.", html: "<p>Attached.</p>" },
        now: new Date(),
      },
      options,
    );
    expect(queued.ok).toBe(true);
    expect((await handleCommand(mailDecider, { type: "RecordMailSent", mailId, attempt: 1, transport, providerMessageId: `provider-${mailId}` }, options)).ok).toBe(true);
    return { mailId, orderId };
  };

  const streamOf = async (mailId: string) =>
    (await api.runtime.deps.store.readStream(mailStream(mailId as EventId))).map((e) => ({ type: e.type, data: e.data, metadata: e.metadata }));

  const postSns = async (message: Record<string, string>) => {
    const response = await fetch(`${base}/api/mail/ses-events`, {
      method: "POST",
      headers: { "content-type": "text/plain; charset=UTF-8", "x-amz-sns-message-type": message.Type! },
      body: JSON.stringify(message),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const postSendgrid = async (body: string, headers: Record<string, string>) => {
    const response = await fetch(`${base}/api/mail/sendgrid-events`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  /** Our custom_args as SendGrid echoes them: top-level fields of each event. */
  const customArgs = (mail: { mailId: EventId; orderId: OrderId }) => ({ eventId: mail.mailId, orderId: mail.orderId });
  const signed = (fields: SnsFields, options?: Parameters<typeof signSns>[2]) => signSns(fields, sns.privateKey, options);

  it("a signed SES Delivery moves the mail to delivered; the same notification again changes nothing", async () => {
    const mail = await sentMail("ses");
    const at = new Date(Date.now() - 5_000).toISOString();
    const notification = signed(snsNotification(sesEvent("Delivery", mail, { at })));
    const answer = await postSns(notification);
    expect(answer).toMatchObject({ status: 200, body: { status: 1, data: { recorded: 1, repeated: 0 } } });
    const events = await streamOf(mail.mailId);
    expect(events.map((e) => e.type)).toEqual(["MailQueued", "MailSent", "MailDelivered"]);
    expect(events[2]!.data).toEqual({ ...mail, transport: "ses", providerEventId: notification.MessageId, reportedAt: at });
    expect(events[2]!.metadata.actor).toEqual({ kind: "system", name: "ses" });
    expect(fetched).toContain(CERT_URL);

    const before = await api.eventCount();
    expect(await postSns(notification)).toMatchObject({ status: 200, body: { data: { recorded: 0, repeated: 1 } } });
    expect(await streamOf(mail.mailId)).toHaveLength(3);
    expect(await api.eventCount()).toBe(before);
  });

  it("a signed SES Bounce (identity-notification form) moves the mail to bounced, with its codes and none of the diagnosis text (names, addresses)", async () => {
    const mail = await sentMail("ses");
    const answer = await postSns(signed(snsNotification(sesEvent("Bounce", mail, { form: "notificationType" })), { version: "1" }));
    expect(answer.status).toBe(200);
    const bounced = (await streamOf(mail.mailId)).at(-1)!;
    expect(bounced).toMatchObject({ type: "MailBounced", data: { permanent: true, reason: "Permanent/General (5.1.1)" } });
    expect(JSON.stringify(bounced)).not.toContain("ann@example.com");
    expect(JSON.stringify(bounced)).not.toContain("Recipient address rejected");
  });

  it("SES messages with a bad signature are refused with 403 and change nothing: wrong key, tampered body, wrong topic, certificate on another host", async () => {
    const mail = await sentMail("ses");
    const eventsBefore = await api.eventCount();
    const fetchesBefore = fetched.length;
    const message = sesEvent("Delivery", mail);
    const otherSigner = makeSigningCertificate();
    const tampered = signed(snsNotification(sesEvent("Delivery", { ...mail, mailId: randomUUID() })));
    const forgeries = {
      "wrong key": signSns(snsNotification(message), otherSigner.privateKey),
      "tampered body": { ...tampered, Message: message },
      "wrong topic": signed(snsNotification(message, { TopicArn: "arn:aws:sns:us-east-1:123456789012:someone-else" })),
      "certificate on another host": signed(snsNotification(message), { certUrl: "https://sns.us-east-1.amazonaws.com.evil.example/cert.pem" }),
      "replayed after an hour": signed(snsNotification(message, { Timestamp: new Date(Date.now() - 2 * 3_600_000).toISOString() })),
    };
    for (const [what, forged] of Object.entries(forgeries)) {
      expect(await postSns(forged), what).toMatchObject({ status: 403, body: { status: 0, message: "The signature of this request could not be verified.", data: null } });
    }
    expect((await streamOf(mail.mailId)).map((e) => e.type)).toEqual(["MailQueued", "MailSent"]);
    expect(await api.eventCount()).toBe(eventsBefore);
    // Only SNS's own host is ever asked for a certificate.
    expect(fetched.slice(fetchesBefore).every((url) => url === CERT_URL)).toBe(true);
  });

  it("a verified SubscriptionConfirmation visits its SubscribeURL; one pointing elsewhere is refused", async () => {
    const subscribeUrl = `https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=${TOPIC_ARN}&Token=abc`;
    const confirmation = (url: string): SnsFields => ({
      Type: "SubscriptionConfirmation",
      MessageId: randomUUID(),
      TopicArn: TOPIC_ARN,
      Message: `You have chosen to subscribe to the topic ${TOPIC_ARN}.\nTo confirm the subscription, visit the SubscribeURL included in this message.`,
      Timestamp: new Date().toISOString(),
      SubscribeURL: url,
      Token: "abc",
    });
    expect(await postSns(signed(confirmation(subscribeUrl)))).toMatchObject({ status: 200, body: { message: "Subscription confirmed." } });
    expect(await postSns(signed(confirmation("https://evil.example/?Action=ConfirmSubscription")))).toMatchObject({ status: 403 });
    expect(await postSns({ ...signed(confirmation(subscribeUrl)), SubscribeURL: `${subscribeUrl}x` })).toMatchObject({ status: 403 });
    expect(confirmed).toEqual([subscribeUrl]);
  });

  it("a report for a mail never sent is answered 200 (no retries) and records nothing; what is not SNS is a 400", async () => {
    const before = await api.eventCount();
    const stranger = { mailId: randomUUID() as EventId, orderId };
    expect(await postSns(signed(snsNotification(sesEvent("Delivery", stranger))))).toMatchObject({ status: 200, body: { data: { recorded: 0, unknownMail: 1 } } });
    expect(await streamOf(stranger.mailId)).toEqual([]);
    expect(await postSns({ hello: "world" })).toMatchObject({ status: 400 });
    expect(await api.eventCount()).toBe(before);
  });

  it("a signed report naming a real mail with another order, or from the provider that did not take it, records nothing (200, unknownMail)", async () => {
    const mail = await sentMail("ses");
    const otherOrder = Schema.decodeSync(OrderId)((await api.placeOrders(1))[0]!);
    const before = await api.eventCount();
    expect(await postSns(signed(snsNotification(sesEvent("Delivery", { ...mail, orderId: otherOrder }))))).toMatchObject({
      status: 200,
      body: { data: { recorded: 0, unknownMail: 1 } },
    });
    const body = JSON.stringify([{ timestamp: Math.floor(Date.now() / 1000), event: "delivered", sg_event_id: `d-${mail.mailId}`, ...customArgs(mail) }]);
    expect(await postSendgrid(body, signSendgrid(body, sendgrid.privateKey))).toMatchObject({ status: 200, body: { data: { recorded: 0, unknownMail: 1 } } });
    expect((await streamOf(mail.mailId)).map((e) => e.type)).toEqual(["MailQueued", "MailSent"]);
    expect(await api.eventCount()).toBe(before);
  });

  it("a large signed batch about one mail records at most a few reports, reads the mail once, and its replay records nothing", async () => {
    const mail = await sentMail("sendgrid");
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify(
      Array.from({ length: 1_000 }, (_, n) => ({ email: "ann@example.com", timestamp: now - 1, event: "delivered", sg_event_id: `flood-${n}`, ...customArgs(mail) })),
    );
    const started = performance.now();
    expect(await postSendgrid(body, signSendgrid(body, sendgrid.privateKey))).toMatchObject({ status: 200, body: { data: { recorded: 10, skipped: 990 } } });
    const before = await api.eventCount();
    expect(await postSendgrid(body, signSendgrid(body, sendgrid.privateKey))).toMatchObject({ status: 200, body: { data: { recorded: 0, repeated: 10, skipped: 990 } } });
    expect(await api.eventCount()).toBe(before);
    console.log(`two 1,000-report batches about one mail answered in ${(performance.now() - started).toFixed(0)} ms`);
  });

  it("a signed SendGrid batch moves one mail to delivered and another to bounced; the batch again changes nothing", async () => {
    const delivered = await sentMail("sendgrid");
    const bounced = await sentMail("sendgrid");
    const now = Math.floor(Date.now() / 1000);
    const body = JSON.stringify([
      { email: "ann@example.com", timestamp: now - 3, event: "processed", sg_event_id: `p-${delivered.mailId}`, ...customArgs(delivered) },
      { email: "ann@example.com", timestamp: now - 2, event: "delivered", sg_event_id: `d-${delivered.mailId}`, response: "250 OK", ...customArgs(delivered) },
      { email: "bob@example.com", timestamp: now - 1, event: "bounce", type: "bounce", reason: "550 5.1.1 <bob@example.com>: unknown user", sg_event_id: `b-${bounced.mailId}`, ...customArgs(bounced) },
    ]);
    expect(await postSendgrid(body, signSendgrid(body, sendgrid.privateKey))).toMatchObject({ status: 200, body: { data: { recorded: 2, skipped: 1 } } });
    expect((await streamOf(delivered.mailId)).at(-1)).toMatchObject({
      type: "MailDelivered",
      data: { transport: "sendgrid", providerEventId: `d-${delivered.mailId}`, reportedAt: new Date((now - 2) * 1000).toISOString() },
      metadata: { actor: { kind: "system", name: "sendgrid" } },
    });
    expect((await streamOf(bounced.mailId)).at(-1)).toMatchObject({ type: "MailBounced", data: { permanent: true, reason: "bounce" } });

    const before = await api.eventCount();
    expect(await postSendgrid(body, signSendgrid(body, sendgrid.privateKey))).toMatchObject({ status: 200, body: { data: { recorded: 0, repeated: 2 } } });
    expect(await api.eventCount()).toBe(before);
  });

  it("SendGrid requests with a bad signature are refused with 403 and change nothing: wrong key, tampered body, old timestamp, no signature", async () => {
    const mail = await sentMail("sendgrid");
    const before = await api.eventCount();
    const body = JSON.stringify([{ timestamp: Math.floor(Date.now() / 1000), event: "delivered", sg_event_id: `d-${mail.mailId}`, ...customArgs(mail) }]);
    const elevenMinutesAgo = String(Math.floor(Date.now() / 1000) - 11 * 60);
    const forgeries: [string, string, Record<string, string>][] = [
      ["wrong key", body, signSendgrid(body, makeSendgridKeys().privateKey)],
      ["tampered body", body.replace("delivered", "spamreport"), signSendgrid(body, sendgrid.privateKey)],
      ["old timestamp", body, signSendgrid(body, sendgrid.privateKey, elevenMinutesAgo)],
      ["no signature", body, {}],
    ];
    for (const [what, sent, headers] of forgeries) {
      expect(await postSendgrid(sent, headers), what).toMatchObject({ status: 403, body: { status: 0, data: null } });
    }
    expect((await streamOf(mail.mailId)).map((e) => e.type)).toEqual(["MailQueued", "MailSent"]);
    expect(await api.eventCount()).toBe(before);
  });

  it("without SES_SNS_TOPIC_ARN and SENDGRID_WEBHOOK_PUBLIC_KEY both webhooks answer 404; a body over 256 KB is a 413", async () => {
    for (const path of ["/api/mail/ses-events", "/api/mail/sendgrid-events"]) {
      const response = await fetch(`${api.base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "[]" });
      expect(response.status, path).toBe(404);
      expect(await response.json()).toMatchObject({ status: 0, message: "This API path does not exist." });
    }
    const huge = JSON.stringify([{ event: "open", pad: "x".repeat(300 * 1024) }]);
    expect((await postSendgrid(huge, signSendgrid(huge, sendgrid.privateKey))).status).toBe(413);
  });
});
