import { randomUUID } from "node:crypto";
import express from "express";
import { mailStream, type MailEvent } from "@etd/events";
import { handleCommand, loadStream, mailDecider, type MailState } from "@etd/write";
import type { ApiDeps } from "../api-deps.ts";
import { throttleKey } from "../http/client-address.ts";
import { createRateLimiter, tooManyRequests, type RateLimit } from "../http/rate-limit.ts";
import { fail, ok, type Reply } from "../http/reply.ts";
import type { DeliveryReport, ParsedReports } from "../mail/delivery-reports/delivery-report.ts";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, sendgridReportsFrom, verifySendgridRequest } from "../mail/delivery-reports/sendgrid.ts";
import { createSnsVerifier, isSnsUrl, parseSnsMessage, sesReportsFrom } from "../mail/delivery-reports/sns.ts";

/*
 * The providers' delivery reports (issue 12 "Webhooks", ORDER-2's Email History, ADR 0019):
 * SES through SNS at /api/mail/ses-events, SendGrid's Event Webhook at /api/mail/sendgrid-events.
 * Nobody signs in here: the provider's signature is the authentication, checked on the raw bytes
 * before anything is parsed into a command, and a request that fails it is refused with 403 with
 * nothing recorded. Each report is the mail decider's RecordDeliveryReport in the mail's stream,
 * which drops a repeated report (same provider event id) and refuses one for a mail never sent.
 *
 * Outside the endpoint table on purpose: the table decodes JSON bodies, and a signature has to be
 * checked on the bytes as they came; SNS also posts its JSON as text/plain.
 */

export const SES_EVENTS_PATH = "/api/mail/ses-events";
export const SENDGRID_EVENTS_PATH = "/api/mail/sendgrid-events";

/** A provider batch is small (SendGrid posts up to a few hundred events); anything larger is not one. */
export const MAX_WEBHOOK_BODY = "256kb";

/**
 * Per endpoint and sending address, like the public endpoints' limit (http/rate-limit.ts) but
 * higher: a provider posts from few addresses, and a report refused with 429 comes again later,
 * so the limit only has to stop a flood of forgeries from keeping the signature checks busy.
 */
export const WEBHOOK_RATE_LIMIT: RateLimit = { limit: 1_200, windowMs: 60_000 };

const NOT_FOUND = "This API path does not exist.";
export const SIGNATURE_REFUSED = "The signature of this request could not be verified.";

/** How many of a request's reports were recorded, were repeats, named a mail we never sent, or moved no mail. */
export interface WebhookOutcome {
  readonly recorded: number;
  readonly repeated: number;
  readonly unknownMail: number;
  readonly skipped: number;
}

const requestIdOf = (req: express.Request): string => {
  const given = req.get("x-request-id");
  return given && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
};

/** One command per report, in order: two reports of one mail in a batch see each other. */
/**
 * A mail has a handful of reports in its life (delivered, perhaps a complaint): once it holds this
 * many, further ones are set aside, so that a large signed batch, or one replayed within its
 * signature's lifetime, costs a bounded amount of work and never grows the mail's stream.
 */
const MAX_REPORTS_PER_MAIL = 10;

/**
 * Each mail's stream is read once per request; reports it already holds, and repeats within the
 * request, are dropped before anything is decided.
 */
const recordReports = async (deps: ApiDeps, parsed: ParsedReports, requestId: string): Promise<WebhookOutcome> => {
  let recorded = 0;
  let repeated = 0;
  let unknownMail = 0;
  let skipped = parsed.skipped.length;
  const byMail = new Map<string, DeliveryReport[]>();
  const seen = new Set<string>();
  for (const report of parsed.reports) {
    if (seen.has(report.providerEventId)) {
      repeated++;
      continue;
    }
    seen.add(report.providerEventId);
    byMail.set(report.mailId, [...(byMail.get(report.mailId) ?? []), report]);
  }
  for (const [mailId, reports] of byMail) {
    const streamId = mailStream(mailId as DeliveryReport["mailId"]);
    let known: { state: MailState; version: bigint } = await loadStream(deps.store, streamId, mailDecider);
    const fresh = reports.filter((report) => !known.state.reports.has(report.providerEventId));
    repeated += reports.length - fresh.length;
    const room = Math.max(0, MAX_REPORTS_PER_MAIL - known.state.reports.size);
    skipped += Math.max(0, fresh.length - room);
    for (const report of fresh.slice(0, room)) {
      const outcome = await handleCommand(
        mailDecider,
        { type: "RecordDeliveryReport", ...report },
        { store: deps.store, streamId, metadata: { actor: { kind: "system", name: report.transport }, correlationId: requestId }, now: deps.now, loaded: known },
      );
      if (outcome.ok && outcome.events.length > 0) {
        recorded++;
        known = { state: (outcome.events as MailEvent[]).reduce(mailDecider.evolve, known.state), version: known.version + BigInt(outcome.events.length) };
      } else if (outcome.ok) {
        repeated++;
      } else {
        // Answered 200 all the same: the provider would otherwise post it again for a day, and no
        // answer of ours will make a mail exist that we never sent (or one another install sent).
        console.warn(`${report.transport} reported ${report.outcome} for mail ${report.mailId} of order ${report.orderId}, which was not recorded: ${outcome.refusal.message}`);
        unknownMail++;
      }
    }
  }
  return { recorded, repeated, unknownMail, skipped };
};

const send = (res: express.Response, reply: Reply) => {
  res.status(reply.httpStatus).json(reply.body);
};

const answered = (outcome: WebhookOutcome): Reply =>
  ok(outcome.recorded > 0 ? "Delivery reports recorded." : "Nothing to record.", outcome);

const refused = (provider: string, reason: string, req: express.Request): Reply => {
  // Said in the log for the operator (a wrong key or topic shows here first), never to the sender.
  console.warn(`${provider} webhook refused from ${req.ip ?? "?"}: ${reason}`);
  return fail(403, SIGNATURE_REFUSED);
};

const bodyOf = (req: express.Request): Buffer => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));

export interface MailWebhookOptions {
  readonly rateLimit?: RateLimit;
}

export const mountMailWebhooks = (app: express.Express, deps: ApiDeps, options: MailWebhookOptions = {}): void => {
  const settings = deps.mailWebhooks;
  const limiter = createRateLimiter(options.rateLimit ?? WEBHOOK_RATE_LIMIT);
  // Whatever the content type (SNS says text/plain, SendGrid application/json): the bytes as sent.
  const rawBody = express.raw({ type: () => true, limit: MAX_WEBHOOK_BODY });

  const route = (path: string, enabled: boolean, scope: string, handle: (req: express.Request) => Promise<Reply>) => {
    app.post(path, (req, res, next) => {
      if (!enabled) return send(res, fail(404, NOT_FOUND));
      const waitMs = limiter.take(`${scope}:${throttleKey(req.ip ?? req.socket.remoteAddress ?? "0.0.0.0")}`);
      if (waitMs > 0) {
        res.set("retry-after", String(Math.ceil(waitMs / 1000)));
        return send(res, fail(429, tooManyRequests(waitMs)));
      }
      rawBody(req, res, (error?: unknown) => {
        if (error) return next(error);
        handle(req).then((reply) => send(res, reply), next);
      });
    });
  };

  const sns = settings?.sesTopicArn
    ? createSnsVerifier({ topicArn: settings.sesTopicArn, fetchCertificate: settings.fetchCertificate, now: deps.now })
    : undefined;

  route(SES_EVENTS_PATH, sns !== undefined, "ses-events", async (req) => {
    const message = parseSnsMessage(bodyOf(req).toString("utf8"));
    if (!message) return fail(400, "The body is not an SNS message.");
    const verdict = await sns!.verify(message);
    if (!verdict.ok) {
      // The certificate could not be fetched: SNS tries again later, when it may be.
      return verdict.unavailable ? fail(503, "The signature cannot be checked right now. Please try again later.") : refused("SNS", verdict.reason, req);
    }
    switch (message.Type) {
      case "SubscriptionConfirmation": {
        const url = message.SubscribeURL!;
        if (!isSnsUrl(url)) return refused("SNS", "the SubscribeURL is not on an SNS host", req);
        await settings!.confirmSubscription(url);
        console.log(`Confirmed the SNS subscription to ${message.TopicArn}.`);
        return ok("Subscription confirmed.");
      }
      case "UnsubscribeConfirmation":
        // Someone unsubscribed this endpoint; subscribing again is an operator's decision.
        console.warn(`The SNS subscription to ${message.TopicArn} was ended; SES delivery reports stop until it is subscribed again.`);
        return ok("Noted.");
      case "Notification":
        return answered(await recordReports(deps, sesReportsFrom(message), requestIdOf(req)));
    }
  });

  route(SENDGRID_EVENTS_PATH, settings?.sendgridPublicKey !== undefined, "sendgrid-events", async (req) => {
    const body = bodyOf(req);
    const timestamp = req.get(TIMESTAMP_HEADER);
    const verdict = verifySendgridRequest({
      publicKey: settings!.sendgridPublicKey!,
      signature: req.get(SIGNATURE_HEADER),
      timestamp,
      body,
      now: deps.now(),
    });
    if (!verdict.ok) return refused("SendGrid", verdict.reason, req);
    let events: unknown;
    try {
      events = JSON.parse(body.toString("utf8"));
    } catch {
      return fail(400, "The body is not valid JSON.");
    }
    return answered(await recordReports(deps, sendgridReportsFrom(events, timestamp!), requestIdOf(req)));
  });
};
