import { EventId, IsoDateTime, type MailEvent } from "@etd/events";
import { describe, expect, it } from "vitest";
import { foldEvents, MAX_REPORTS_PER_MAIL, mailDecider, orderDecider, type MailCommand, type QueueMail } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { MARIA, PAOLO, systemMetadata } from "../support/metadata.ts";
import { historyIn, ORDER_ID, storedEvent } from "../support/order-fixtures.ts";

/*
 * CROSS-4 / DESIGN §8: the rules of one mail. The attempt is recorded before the provider call,
 * at most one attempt is open, an unknown outcome is never retried automatically, a provider's
 * report counts once.
 */

const spec = specFor(mailDecider);
const MAIL_ID = EventId.make("0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
const NOW = new Date("2025-03-14T09:30:00.000Z");
const iso = (text: string) => IsoDateTime.make(text);
const ref = { mailId: MAIL_ID, orderId: ORDER_ID };
const reactor = systemMetadata("mail");

const SENDER = "Philippines eTravel Declaration <no-reply@etd.example>";
const CONTENT = { to: "juan.delacruz@example.com", subject: "Your eTravel document for order 100234", text: "Your document is ready.", html: "<p>Your document is ready.</p>" };

const queue = (overrides: Partial<QueueMail> = {}): QueueMail => ({
  type: "QueueMail",
  ...ref,
  purpose: "document",
  provider: "AWS",
  transport: "ses",
  messageId: `<${MAIL_ID}.1@mail.etd>`,
  template: "document/primary@1",
  from: SENDER,
  content: CONTENT,
  now: NOW,
  ...overrides,
});

const queued = (attempt = 1) =>
  storedEvent("MailQueued", { ...ref, purpose: "document", provider: "AWS", transport: "ses", attempt, messageId: `<${MAIL_ID}.${attempt}@mail.etd>`, template: "document/primary@1", from: SENDER, personal: CONTENT }, reactor);
const sent = (attempt = 1) => storedEvent("MailSent", { ...ref, attempt, transport: "ses", providerMessageId: `ses-${attempt}` }, reactor);
const failed = (attempt: number, retryAt?: string) =>
  storedEvent("MailFailed", { ...ref, attempt, personal: { reason: "503 Service Unavailable" }, ...(retryAt ? { retryAt } : {}) }, reactor);
const unknown = (attempt = 1) => storedEvent("MailOutcomeUnknown", { ...ref, attempt }, reactor);
const delivered = (providerEventId = "sns-1") =>
  storedEvent("MailDelivered", { ...ref, transport: "ses", providerEventId, reportedAt: "2025-03-14T09:31:00.000Z" }, systemMetadata("ses"));
const complained = () => storedEvent("MailComplained", { ...ref, transport: "ses", providerEventId: "sns-9", reportedAt: "2025-03-14T10:00:00.000Z" }, systemMetadata("ses"));
const retryRequested = () => storedEvent("MailRetryRequested", { ...ref, requestedBy: { id: MARIA.id, name: MARIA.name } }, reactor);

const failure = (attempt: number, permanent = false): MailCommand => ({
  type: "RecordMailFailure",
  mailId: MAIL_ID,
  attempt,
  reason: "550 5.1.1 <juan@example.com>: Recipient address rejected",
  permanent,
  retryDelaysMs: [60_000, 300_000],
  now: NOW,
});

describe("CROSS-4 a mail's attempts", () => {
  it("records the first attempt before the provider is called", () => {
    spec.given([]).when(queue()).then([{ type: "MailQueued", data: { ...ref, purpose: "document", provider: "AWS", transport: "ses", attempt: 1, messageId: `<${MAIL_ID}.1@mail.etd>`, template: "document/primary@1", from: SENDER, personal: CONTENT } }]);
  });

  it("refuses an attempt with no valid recipient", () => {
    spec.given([]).when(queue({ content: { ...CONTENT, to: "not an address" } })).thenRefuses("invalid", "A mail attempt needs a valid recipient.");
  });

  it("never records a second attempt while one is open, sent, or unknown (a mail is not sent twice for one event)", () => {
    spec.given([queued()]).when(queue()).thenRefuses("conflict", "This mail is already queued.");
    spec.given([queued(), sent()]).when(queue()).thenRefuses("conflict", "This mail is already sent.");
    spec.given([queued(), unknown()]).when(queue()).thenRefuses("conflict", "This mail is already unknown.");
    spec.given([queued(), sent(), delivered()]).when(queue()).thenRefuses("conflict", "This mail is already delivered.");
  });

  it("records the provider's acceptance once", () => {
    spec.given([queued()]).when({ type: "RecordMailSent", mailId: MAIL_ID, attempt: 1, transport: "ses", providerMessageId: "ses-1" }).then([{ type: "MailSent", data: { ...ref, attempt: 1, transport: "ses", providerMessageId: "ses-1" } }]);
    spec.given([queued(), sent()]).when({ type: "RecordMailSent", mailId: MAIL_ID, attempt: 1, transport: "ses", providerMessageId: "ses-1" }).then([]);
  });

  it("schedules the next attempt after a passing failure, by the backoff schedule", () => {
    spec.given([queued()]).when(failure(1)).then([{ type: "MailFailed", data: { ...ref, attempt: 1, personal: { reason: "550 5.1.1 <juan@example.com>: Recipient address rejected" }, retryAt: iso("2025-03-14T09:31:00.000Z") } }]);
    spec.given([queued(), failed(1, "2025-03-14T09:31:00.000Z"), queued(2)]).when(failure(2)).then([{ type: "MailFailed", data: { ...ref, attempt: 2, personal: { reason: "550 5.1.1 <juan@example.com>: Recipient address rejected" }, retryAt: iso("2025-03-14T09:35:00.000Z") } }]);
  });

  it("stops as failed after the last scheduled attempt, or at once when the provider refuses for good", () => {
    spec.given([queued(), failed(1, "2025-03-14T09:31:00.000Z"), queued(2), failed(2, "2025-03-14T09:36:00.000Z"), queued(3)]).when(failure(3)).then([{ type: "MailFailed", data: { ...ref, attempt: 3, personal: { reason: "550 5.1.1 <juan@example.com>: Recipient address rejected" } } }]);
    spec.given([queued()]).when(failure(1, true)).then([{ type: "MailFailed", data: { ...ref, attempt: 1, personal: { reason: "550 5.1.1 <juan@example.com>: Recipient address rejected" } } }]);
  });

  it("queues the next attempt only when it is due", () => {
    const history = [queued(), failed(1, "2025-03-14T09:31:00.000Z")];
    spec.given(history).when(queue()).thenRefuses("conflict", "The next attempt of this mail is due at 2025-03-14T09:31:00.000Z.");
    const decision = mailDecider.decide(queue({ now: new Date("2025-03-14T09:31:00.000Z") }), foldEvents(mailDecider, history));
    expect(decision).toMatchObject([{ type: "MailQueued", data: { attempt: 2 } }]);
  });

  it("marks an attempt found without an outcome as unknown, and never retries it by itself", () => {
    spec.given([queued()]).when({ type: "MarkMailOutcomeUnknown", mailId: MAIL_ID, attempt: 1 }).then([{ type: "MailOutcomeUnknown", data: { ...ref, attempt: 1 } }]);
    spec.given([queued(), sent()]).when({ type: "MarkMailOutcomeUnknown", mailId: MAIL_ID, attempt: 1 }).then([]);
    spec.given([queued(), unknown()]).when(queue({ now: new Date("2030-01-01T00:00:00.000Z") })).thenRefuses("conflict", "This mail is already unknown.");
  });
});

describe("CROSS-4 the providers' delivery reports", () => {
  const report = (overrides: Partial<Extract<MailCommand, { type: "RecordDeliveryReport" }>> = {}): MailCommand => ({
    type: "RecordDeliveryReport",
    ...ref,
    transport: "ses",
    outcome: "delivered",
    providerEventId: "sns-1",
    reportedAt: "2025-03-14T09:31:00.000Z",
    ...overrides,
  });

  it("settles an unknown attempt from the provider's report", () => {
    spec.given([queued(), unknown()]).when(report()).then([{ type: "MailDelivered", data: { ...ref, transport: "ses", providerEventId: "sns-1", reportedAt: iso("2025-03-14T09:31:00.000Z") } }]);
    const state = foldEvents(mailDecider, [queued(), unknown(), delivered()]);
    expect(state.stage).toBe("delivered");
  });

  it("records a repeated report once", () => {
    spec.given([queued(), sent(), delivered("sns-1")]).when(report()).then([]);
  });

  it("takes at most MAX_REPORTS_PER_MAIL reports in a mail's life, so a flood grows nothing", () => {
    const flood = Array.from({ length: MAX_REPORTS_PER_MAIL }, (_, n) => delivered(`sns-flood-${n}`));
    spec.given([queued(), sent(), ...flood]).when(report({ outcome: "complained", providerEventId: "sns-late" })).then([]);
    spec.given([queued(), sent(), ...flood.slice(1)]).when(report({ outcome: "complained", providerEventId: "sns-late" })).then([{ type: "MailComplained", data: { ...ref, transport: "ses", providerEventId: "sns-late", reportedAt: iso("2025-03-14T09:31:00.000Z") } }]);
  });

  it("keeps the graver state: a complaint after a delivery stays a complaint", () => {
    expect(foldEvents(mailDecider, [queued(), sent(), complained(), delivered("sns-2")]).stage).toBe("complained");
  });

  it("refuses a report for a mail never sent, or of another order", () => {
    spec.given([]).when(report()).thenRefuses("not_found", "No such mail was sent.");
    spec.given([queued()]).when(report({ orderId: "999999" as typeof ORDER_ID })).thenRefuses("not_found", "No such mail was sent.");
    // SES took this mail: SendGrid has nothing to say about it.
    spec.given([queued(), sent()]).when(report({ transport: "sendgrid", providerEventId: "sg-1" })).thenRefuses("not_found", "No such mail was sent.");
  });
});

describe("ORDER-2 Retry on a failed mail", () => {
  const order = (assignee = MARIA) => foldEvents(orderDecider, historyIn("Pending", assignee));
  const retry = (actor = MARIA, assignee = MARIA): MailCommand => ({ type: "RequestMailRetry", ...ref, actor, order: order(assignee) });

  it("lets staff retry a mail that failed for good, or whose outcome is unknown, and then queues it", () => {
    const history: MailEvent[] = [queued(), failed(1)];
    spec.given(history).when(retry()).then([{ type: "MailRetryRequested", data: { ...ref, requestedBy: { id: MARIA.id, name: MARIA.name } } }]);
    spec.given([queued(), unknown()]).when(retry()).then([{ type: "MailRetryRequested", data: { ...ref, requestedBy: { id: MARIA.id, name: MARIA.name } } }]);
    const decision = mailDecider.decide(queue(), foldEvents(mailDecider, [...history, retryRequested()]));
    expect(decision).toMatchObject([{ type: "MailQueued", data: { attempt: 2 } }]);
  });

  it("refuses a retry of a mail that went out", () => {
    spec.given([queued(), sent()]).when(retry()).thenRefuses("conflict", "This mail is sent; only a failed mail, or one whose outcome is unknown, can be retried.");
  });

  it("QUEUE-12: refuses Team a retry on an order someone else holds", () => {
    spec.given([queued(), failed(1)]).when(retry(PAOLO, MARIA)).thenRefuses("forbidden", `Order ${ORDER_ID} is assigned to Maria Santos; only they, a Manager or an Admin can change it.`);
  });
});
