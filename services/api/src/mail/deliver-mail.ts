import type { EventStore } from "@etd/event-store";
import { BRANDS } from "@etd/contract";
import { isErased, mailStream, type EventId, type MailEvent, type EventMetadata, type InvoiceSent, type MailProvider, type OrderEvent, type OrderId } from "@etd/events";
import { MailRejected, MailUnavailable, withoutAddresses, type MailAttachment, type Mailer, type OutgoingMail } from "@etd/mail";
import { handleCommand, mailDecider, type CommandOutcome, type MailCommand, type MailState } from "@etd/write";
import { composeMail } from "./templates.ts";
import { invoiceOf, readMail, readMailRequest, recipientOf, type MailRequest } from "./mail-records.ts";

/*
 * One mail, start to end (DESIGN §8): record the attempt (MailQueued, with the content as it
 * will go), hand it to the provider, record the answer (MailSent or MailFailed). The record comes
 * first, so a stop in between leaves a queued attempt with no answer; finding one, this does not
 * send again: it marks the outcome unknown for the provider's delivery report (or staff) to
 * settle. Only the outbox, which writes one file per Message-ID, may simply be asked again.
 */

export interface DeliverDeps {
  readonly store: EventStore;
  /** The adapter behind each provider label (the outbox when the provider has no credentials). */
  readonly mailers: { readonly [P in MailProvider]: Mailer };
  /** MAIL_FROM; the brand's name replaces its display name. */
  readonly from: string;
  readonly publicUrl: string;
  readonly retryDelaysMs: readonly number[];
  /** The invoice PDF for an InvoiceSent, from the order's events up to it. */
  readonly invoicePdf: (history: readonly OrderEvent[], invoice: InvoiceSent) => Promise<Buffer>;
  readonly now: () => Date;
}

export type Delivery = "sent" | "failed" | "unknown" | "skipped";

const REACTOR_ACTOR = { kind: "system", name: "mail" } as const;

const metadataFor = (mailId: EventId): Omit<EventMetadata, "occurredAt"> => ({ actor: REACTOR_ACTOR, correlationId: mailId, causationId: mailId });

/** The sender's address under the brand's name: customers know the brand, not us. */
const senderFor = (from: string, brandName: string): string => {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from.trim();
  return `${brandName} <${address}>`;
};

const customerName = (history: readonly OrderEvent[]): string => {
  const placed = history.find((event) => event.type === "OrderPlaced");
  if (placed?.type !== "OrderPlaced" || isErased(placed.data.personal)) return "";
  return [placed.data.personal.first_name, placed.data.personal.last_name].filter(Boolean).join(" ");
};

const landingDomainOf = (history: readonly OrderEvent[]) => {
  const placed = history.find((event) => event.type === "OrderPlaced");
  return placed?.type === "OrderPlaced" ? placed.data.landingDomain : "primary";
};

const toOutgoing = (deps: DeliverDeps, request: MailRequest, to: string, attempt: number) => {
  const landingDomain = landingDomainOf(request.history);
  const brand = BRANDS[landingDomain];
  const composed = composeMail({
    purpose: request.purpose,
    landingDomain,
    orderId: request.orderId,
    customerName: customerName(request.history),
    trackUrl: `${deps.publicUrl}/track-order/${request.orderId}`,
    invoiceNumber: invoiceOf(request)?.data.invoice?.number,
  });
  const messageId = `<${request.mailId}.${attempt}@${brand.mailDomain}>`;
  return { composed, messageId, from: senderFor(deps.from, brand.name), to };
};

export const deliverMail = async (deps: DeliverDeps, orderId: OrderId, mailId: EventId): Promise<Delivery> => {
  const { store } = deps;
  const record = await readMail(store, mailId);
  // The stream as this call last knew it: each command decides on it without reading it again.
  let known: { state: MailState; version: bigint } = { state: record.state, version: record.version };
  const run = async (command: MailCommand): Promise<CommandOutcome> => {
    const outcome = await handleCommand(mailDecider, command, { store, streamId: mailStream(mailId), metadata: metadataFor(mailId), now: deps.now, loaded: known });
    known =
      outcome.ok && outcome.events.length > 0
        ? { state: (outcome.events as MailEvent[]).reduce(mailDecider.evolve, known.state), version: known.version + BigInt(outcome.events.length) }
        : { ...(await readMail(store, mailId)) };
    return outcome;
  };
  const { state } = record;

  if (state.stage === "queued" && record.lastQueued !== undefined) {
    // An attempt with no recorded answer: the sender stopped after recording it.
    const queued = record.lastQueued;
    const mailer = deps.mailers[queued.data.provider];
    if (mailer.transport !== "outbox" || mailer.transport !== queued.data.transport || isErased(queued.data.personal)) {
      await run({ type: "MarkMailOutcomeUnknown", mailId, attempt: queued.data.attempt });
      return "unknown";
    }
    const request = await readMailRequest(store, orderId, mailId);
    if (request === undefined) return "skipped";
    const { personal } = queued.data;
    return finish(deps, run, request, mailer, queued.data.attempt, {
      messageId: queued.data.messageId,
      from: queued.data.from,
      to: personal.to,
      subject: personal.subject,
      text: personal.text,
      html: personal.html,
      tags: { eventId: mailId, orderId },
    });
  }

  const request = await readMailRequest(store, orderId, mailId);
  if (request === undefined) return "skipped";
  const to = recipientOf(request);
  // The order was erased after asking: there is no one to write to any more.
  if (to === undefined) return "skipped";
  const mailer = deps.mailers[request.event.data.provider];
  const attempt = state.attempt + 1;
  const { composed, messageId, from } = toOutgoing(deps, request, to, attempt);
  const queued = await run({
    type: "QueueMail",
    mailId,
    orderId,
    purpose: request.purpose,
    provider: request.event.data.provider,
    transport: mailer.transport,
    messageId,
    template: composed.template,
    from,
    content: { to, subject: composed.subject, text: composed.text, html: composed.html },
    now: deps.now(),
  });
  // Refused: already handled, not due yet, or another sender got there first.
  if (!queued.ok || queued.events.length === 0) return "skipped";
  return finish(deps, run, request, mailer, attempt, {
    messageId,
    from,
    to,
    subject: composed.subject,
    text: composed.text,
    html: composed.html,
    tags: { eventId: mailId, orderId },
  });
};

/** Hands a recorded attempt to the provider and records its answer. */
const finish = async (
  deps: DeliverDeps,
  run: (command: MailCommand) => Promise<CommandOutcome>,
  request: MailRequest,
  mailer: Mailer,
  attempt: number,
  mail: Omit<OutgoingMail, "attachments">,
): Promise<Delivery> => {
  const { mailId } = request;
  let sent;
  try {
    const invoice = invoiceOf(request);
    const attachments: MailAttachment[] = invoice
      ? [{ fileName: `invoice-${invoice.data.invoice?.number ?? request.orderId}.pdf`, contentType: "application/pdf", content: await deps.invoicePdf(request.history, invoice) }]
      : [];
    sent = await mailer.send({ ...mail, ...(attachments.length > 0 ? { attachments } : {}) });
  } catch (error) {
    const permanent = error instanceof MailRejected;
    const said = error instanceof MailRejected || error instanceof MailUnavailable ? error.providerText : error instanceof Error ? error.message : String(error);
    await run({
      type: "RecordMailFailure",
      mailId,
      attempt,
      reason: withoutAddresses(said).slice(0, 500),
      permanent,
      retryDelaysMs: deps.retryDelaysMs,
      now: deps.now(),
    });
    return "failed";
  }
  // Not inside the try: a sent mail whose record fails is not a failed mail. The attempt stays
  // queued, and is found so (and marked unknown) when the event is handled again.
  await run({ type: "RecordMailSent", mailId, attempt, transport: sent.transport, providerMessageId: sent.providerMessageId });
  return "sent";
};
