import type { IsoDateTime, MailEvent, WithoutMetadata } from "@etd/events";
import { readOnlyFor } from "../orders/decide-order.ts";
import type { Decider, Decision } from "../shared/decider.ts";
import { refuse } from "../shared/refusal.ts";
import { isEmailAddress, trimmedText } from "../shared/validation.ts";
import type { MailCommand, QueueMail, RecordDeliveryReport, RecordMailFailure, RequestMailRetry } from "./commands.ts";
import { evolveMail, initialMailState, type MailState } from "./mail-state.ts";

/*
 * The rules of one mail (DESIGN §8): an attempt is recorded before the provider is called and at
 * most one is open at a time, so a mail is never handed over twice for one request unless someone
 * decided so (an automatic retry after a failure, or staff's Retry); an attempt whose outcome is
 * unknown is never retried automatically; a provider's report is recorded once.
 */

type MailDecision = Decision<WithoutMetadata<MailEvent>>;

/** How many delivery reports one mail takes in its life; later ones are set aside. */
export const MAX_REPORTS_PER_MAIL = 10;

/** The catalogue's NonEmptyText, from text that may be missing. */
const text = (value: string | undefined): string | undefined => (value === undefined ? undefined : trimmedText(value));

const queueMail = (command: QueueMail, state: MailState): MailDecision => {
  const messageId = text(command.messageId);
  const template = text(command.template);
  const from = text(command.from);
  const subject = text(command.content.subject);
  if (messageId === undefined || template === undefined || subject === undefined || from === undefined) {
    return refuse("invalid", "A mail attempt needs its message id, template, sender and subject.");
  }
  if (!isEmailAddress(command.content.to)) return refuse("invalid", "A mail attempt needs a valid recipient.");
  const due = state.retryAt !== undefined && Date.parse(state.retryAt) <= command.now.getTime();
  const mayQueue =
    state.stage === "none" ||
    (state.stage === "failed" && (due || state.retryRequested)) ||
    (state.stage === "unknown" && state.retryRequested);
  if (!mayQueue) {
    return refuse("conflict", state.stage === "failed" ? `The next attempt of this mail is due at ${state.retryAt ?? "a retry"}.` : `This mail is already ${state.stage}.`);
  }
  return [
    {
      type: "MailQueued",
      data: {
        mailId: command.mailId,
        orderId: command.orderId,
        purpose: command.purpose,
        provider: command.provider,
        transport: command.transport,
        attempt: state.attempt + 1,
        messageId,
        template,
        from,
        personal: { to: command.content.to, subject, text: command.content.text, html: command.content.html },
      },
    },
  ];
};

/** Only the attempt in flight can end, and only once. */
const openAttempt = (state: MailState, attempt: number): boolean =>
  attempt === state.attempt && !state.sent && (state.stage === "queued" || state.stage === "unknown");

const recordFailure = (command: RecordMailFailure, state: MailState): MailDecision => {
  if (!openAttempt(state, command.attempt) || state.stage !== "queued") {
    return refuse("conflict", `Attempt ${command.attempt} of this mail is not in flight.`);
  }
  const reason = text(command.reason) ?? "The provider gave no reason.";
  const delayMs = command.permanent ? undefined : command.retryDelaysMs[command.attempt - 1];
  const retryAt = delayMs === undefined ? undefined : (new Date(command.now.getTime() + delayMs).toISOString() as IsoDateTime);
  return [
    {
      type: "MailFailed",
      data: { mailId: command.mailId, orderId: state.orderId!, attempt: command.attempt, personal: { reason }, ...(retryAt ? { retryAt } : {}) },
    },
  ];
};

const recordReport = (command: RecordDeliveryReport, state: MailState): MailDecision => {
  // Only the provider that took the mail reports on it: a report naming another is not about it.
  if (state.stage === "none" || state.orderId !== command.orderId || state.transport !== command.transport) return refuse("not_found", "No such mail was sent.");
  // A mail has a handful of reports in its life (delivered, perhaps a complaint): past the cap a
  // flood of signed reports, or one replayed within its signature's lifetime, grows nothing.
  if (state.reports.has(command.providerEventId) || state.reports.size >= MAX_REPORTS_PER_MAIL) return [];
  const report = {
    mailId: command.mailId,
    orderId: command.orderId,
    transport: command.transport,
    providerEventId: command.providerEventId,
    reportedAt: command.reportedAt as IsoDateTime,
  };
  switch (command.outcome) {
    case "delivered":
      return [{ type: "MailDelivered", data: report }];
    case "complained":
      return [{ type: "MailComplained", data: report }];
    case "bounced":
      return [
        {
          type: "MailBounced",
          data: { ...report, permanent: command.permanent ?? true, reason: text(command.reason) ?? "The receiving server refused the mail." },
        },
      ];
  }
};

const requestRetry = (command: RequestMailRetry, state: MailState): MailDecision => {
  const { order } = command;
  if (!order.exists || state.orderId !== command.orderId) return refuse("not_found", "The mail was not found.");
  if (order.permanentlyDeleted) return refuse("conflict", `Order ${order.orderId} was permanently deleted.`);
  const readOnly = readOnlyFor(command.actor, order);
  if (readOnly !== undefined) return readOnly;
  if (state.stage !== "failed" && state.stage !== "unknown") {
    return refuse("conflict", `This mail is ${state.stage}; only a failed mail, or one whose outcome is unknown, can be retried.`);
  }
  if (state.retryRequested) return [];
  return [
    {
      type: "MailRetryRequested",
      data: { mailId: command.mailId, orderId: command.orderId, requestedBy: { id: command.actor.id, name: command.actor.name } },
    },
  ];
};

export const decideMail = (command: MailCommand, state: MailState): MailDecision => {
  switch (command.type) {
    case "QueueMail":
      return queueMail(command, state);
    case "RecordMailSent": {
      if (state.sent && command.attempt === state.attempt) return [];
      if (!openAttempt(state, command.attempt)) return refuse("conflict", `Attempt ${command.attempt} of this mail is not in flight.`);
      const providerMessageId = text(command.providerMessageId);
      if (providerMessageId === undefined) return refuse("invalid", "A sent mail needs the provider's message id.");
      return [
        {
          type: "MailSent",
          data: { mailId: command.mailId, orderId: state.orderId!, attempt: command.attempt, transport: command.transport, providerMessageId },
        },
      ];
    }
    case "RecordMailFailure":
      return recordFailure(command, state);
    case "MarkMailOutcomeUnknown":
      if (!openAttempt(state, command.attempt) || state.stage !== "queued") return [];
      return [{ type: "MailOutcomeUnknown", data: { mailId: command.mailId, orderId: state.orderId!, attempt: command.attempt } }];
    case "RecordDeliveryReport":
      return recordReport(command, state);
    case "RequestMailRetry":
      return requestRetry(command, state);
  }
};

export const mailDecider: Decider<MailCommand, MailState, MailEvent> = {
  initialState: initialMailState,
  evolve: evolveMail,
  decide: decideMail,
};
