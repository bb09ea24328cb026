import express from "express";
import { mailStream, type MailEvent } from "@etd/events";
import { handleCommand, loadStream, MAX_REPORTS_PER_MAIL, mailDecider, type MailState } from "@etd/write";
import type { ApiDeps } from "../api-deps.ts";
import { clientAddress, throttleKey } from "../http/client-address.ts";
import { createRateLimiter, tooManyRequests, type RateLimit } from "../http/rate-limit.ts";
import { fail, ok, type Reply } from "../http/reply.ts";
import { requestIdOf } from "../http/endpoint.ts";
import type { ParsedReports } from "../mail/delivery-reports/delivery-report.ts";
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

const SES_EVENTS_PATH = "/api/mail/ses-events";
const SENDGRID_EVENTS_PATH = "/api/mail/sendgrid-events";

/** A provider batch is small (SendGrid posts up to a few hundred events); anything larger is not one. */
const MAX_WEBHOOK_BODY = "256kb";

/**
 * Per endpoint and sending address, like the public endpoints' limit (http/rate-limit.ts) but
 * higher: a provider posts from few addresses, and a report refused with 429 comes again later,
 * so the limit only has to stop a flood of forgeries from keeping the signature checks busy.
 */
const WEBHOOK_RATE_LIMIT: RateLimit = { limit: 1_200, windowMs: 60_000 };

const SIGNATURE_REFUSED = "The signature of this request could not be verified.";

/** How many of a request's reports were recorded, were repeats, named a mail we never sent, or moved no mail. */
interface WebhookOutcome {
  recorded: number;
  repeated: number;
  unknownMail: number;
  skipped: number;
}

/**
 * One command per report, in order, so two reports of one mail in a batch see each other. Each
 * mail's stream is read once per request and carried from command to command; a report the mail
 * already holds is counted as a repeat without asking the decider (which would drop it too), so
 * that a replayed batch decides nothing.
 */
const recordReports = async (deps: ApiDeps, parsed: ParsedReports, requestId: string): Promise<WebhookOutcome> => {
  const outcome: WebhookOutcome = { recorded: 0, repeated: 0, unknownMail: 0, skipped: parsed.skipped.length };
  for (const [mailId, reports] of Map.groupBy(parsed.reports, (report) => report.mailId)) {
    const streamId = mailStream(mailId);
    let known: { state: MailState; version: bigint } = await loadStream(deps.store, streamId, mailDecider);
    for (const report of reports) {
      if (known.state.reports.has(report.providerEventId)) {
        outcome.repeated++;
        continue;
      }
      // The decider would set it aside too (its cap): stopping here spares the call.
      if (known.state.reports.size >= MAX_REPORTS_PER_MAIL) {
        outcome.skipped++;
        continue;
      }
      const result = await handleCommand(
        mailDecider,
        { type: "RecordDeliveryReport", ...report },
        { store: deps.store, streamId, metadata: { actor: { kind: "system", name: report.transport }, correlationId: requestId }, now: deps.now, loaded: known },
      );
      if (!result.ok) {
        // Answered 200 all the same: the provider would otherwise post it again for a day, and no
        // answer of ours will make a mail exist that we never sent (or one another install sent).
        console.warn(`${report.transport} reported ${report.outcome} for mail ${report.mailId} of order ${report.orderId}, which was not recorded: ${result.refusal.message}`);
        outcome.unknownMail++;
        continue;
      }
      // No event: another request recorded it first (handleCommand decided again on its write).
      if (result.events.length === 0) outcome.repeated++;
      else outcome.recorded++;
      known = { state: (result.events as MailEvent[]).reduce(mailDecider.evolve, known.state), version: known.version + BigInt(result.events.length) };
    }
  }
  return outcome;
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

/**
 * Mounts each webhook whose setting is there; one that is not is never mounted, so it answers
 * like any path that does not exist (ADR 0019: no endpoint records reports before forged ones can
 * be told apart).
 */
export const mountMailWebhooks = (app: express.Express, deps: ApiDeps, options: MailWebhookOptions = {}): void => {
  const settings = deps.mailWebhooks;
  if (!settings) return;
  const limiter = createRateLimiter(options.rateLimit ?? WEBHOOK_RATE_LIMIT);
  // Whatever the content type (SNS says text/plain, SendGrid application/json): the bytes as sent.
  const rawBody = express.raw({ type: () => true, limit: MAX_WEBHOOK_BODY });

  const route = (path: string, handle: (req: express.Request, body: Buffer) => Promise<Reply>) => {
    app.post(path, (req, res, next) => {
      // Counted before the body is read: a flood costs neither the read nor the signature check.
      const waitMs = limiter.take(`${path}:${throttleKey(clientAddress(req))}`);
      if (waitMs > 0) {
        res.set("retry-after", String(Math.ceil(waitMs / 1000)));
        return send(res, fail(429, tooManyRequests(waitMs)));
      }
      rawBody(req, res, (error?: unknown) => {
        if (error) return next(error);
        handle(req, bodyOf(req)).then((reply) => send(res, reply), next);
      });
    });
  };

  const { sesTopicArn, sendgridPublicKey, confirmSubscription } = settings;
  if (sesTopicArn) {
    const sns = createSnsVerifier({ topicArn: sesTopicArn, fetchCertificate: settings.fetchCertificate, now: deps.now });
    route(SES_EVENTS_PATH, async (req, body) => {
      const message = parseSnsMessage(body.toString("utf8"));
      if (!message) return fail(400, "The body is not an SNS message.");
      const verdict = await sns.verify(message);
      if (!verdict.ok) {
        // The certificate could not be fetched: SNS tries again later, when it may be.
        return verdict.unavailable ? fail(503, "The signature cannot be checked right now. Please try again later.") : refused("SNS", verdict.reason, req);
      }
      switch (message.Type) {
        case "SubscriptionConfirmation": {
          // parseSnsMessage asks every subscription message for its SubscribeURL.
          const url = message.SubscribeURL!;
          if (!isSnsUrl(url)) return refused("SNS", "the SubscribeURL is not on an SNS host", req);
          await confirmSubscription(url);
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
  }

  if (sendgridPublicKey) {
    route(SENDGRID_EVENTS_PATH, async (req, body) => {
      const timestamp = req.get(TIMESTAMP_HEADER);
      const verdict = verifySendgridRequest({ publicKey: sendgridPublicKey, signature: req.get(SIGNATURE_HEADER), timestamp, body, now: deps.now() });
      if (!verdict.ok) return refused("SendGrid", verdict.reason, req);
      let events: unknown;
      try {
        events = JSON.parse(body.toString("utf8"));
      } catch {
        return fail(400, "The body is not valid JSON.");
      }
      // A verified request has its timestamp.
      return answered(await recordReports(deps, sendgridReportsFrom(events, timestamp!), requestIdOf(req)));
    });
  }
};
