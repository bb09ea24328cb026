import type { EventStore } from "@etd/event-store";
import { BRANDS } from "@etd/contract";
import { isErased, mailStream, type EventId, type MailEvent, type EventMetadata, type InvoiceSent, type MailProvider, type MailQueued, type OrderEvent, type OrderId } from "@etd/events";
import { MailRejected, MailUnavailable, withoutAddresses, type MailAttachment, type Mailer, type OutgoingMail } from "@etd/mail";
import { handleCommand, mailDecider, type CommandOutcome, type MailCommand, type MailState } from "@etd/write";
import { composeMail } from "@etd/documents";
import { invoiceOf, readMail, readMailRequest, recipientOf, type MailRecord, type MailRequest } from "@etd/write";

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

/** The mail as the attempt recorded it: what is handed to the provider, the first time or again. */
const outgoing = (queued: MailQueued, to: string, content: { subject: string; text: string; html: string }): Omit<OutgoingMail, "attachments"> => ({
  messageId: queued.data.messageId,
  from: queued.data.from,
  to,
  ...content,
  tags: { eventId: queued.data.mailId, orderId: queued.data.orderId },
});

/** A mail stream with nothing in it yet: what a request read from the log for the first time finds. */
const NO_RECORD: MailRecord = { state: mailDecider.initialState, version: 0n, lastQueued: undefined, lastSent: undefined };

/**
 * Delivers the mail `mailId` asks for. `fromLog`: the request as just read from the log (its
 * position in the order's stream). Its mail stream is then almost surely empty and is not read
 * first: the attempt is decided on the empty stream and appended only if the stream is still
 * empty; finding it was not (the same request handled again after a stop), nothing is appended
 * and the mail is handled as read. The order is read up to the request only.
 */
export const deliverMail = async (deps: DeliverDeps, orderId: OrderId, mailId: EventId, fromLog?: { readonly streamPosition: bigint }): Promise<void> => {
  const { store } = deps;
  const fresh = fromLog !== undefined;
  const record = fresh ? NO_RECORD : await readMail(store, mailId);
  // The stream as this call last knew it: each command decides on it without reading it again (a
  // stale one only costs the handler a second read, when the append finds the stream moved on).
  let known: { state: MailState; version: bigint } = record;
  const run = async (command: MailCommand, options: { expectedVersion?: bigint } = {}): Promise<CommandOutcome> => {
    const outcome = await handleCommand(mailDecider, command, { store, streamId: mailStream(mailId), metadata: metadataFor(mailId), now: deps.now, loaded: known, ...options });
    if (outcome.ok && outcome.events.length > 0) {
      known = { state: (outcome.events as MailEvent[]).reduce(mailDecider.evolve, known.state), version: known.version + BigInt(outcome.events.length) };
    }
    return outcome;
  };

  const open = record.state.stage === "queued" ? record.lastQueued : undefined;
  if (open !== undefined) {
    // An attempt with no recorded answer: the sender stopped after recording it.
    const mailer = deps.mailers[open.data.provider];
    if (mailer.transport !== "outbox" || open.data.transport !== "outbox" || isErased(open.data.personal)) {
      await run({ type: "MarkMailOutcomeUnknown", mailId, attempt: open.data.attempt });
      return;
    }
    const request = await readMailRequest(store, orderId, mailId);
    if (request === undefined) return;
    const { to, ...content } = open.data.personal;
    await finish(deps, run, request, mailer, open.data.attempt, outgoing(open, to, content));
    return;
  }

  const request = await readMailRequest(store, orderId, mailId, fromLog?.streamPosition);
  // The order was erased after asking: there is no one to write to any more (an attempt left
  // open before that is still marked unknown, so a fresh stream is read after all).
  const to = request && recipientOf(request);
  if (request === undefined || to === undefined) {
    if (fresh) await deliverMail(deps, orderId, mailId);
    return;
  }
  const mailer = deps.mailers[request.event.data.provider];
  const attempt = record.state.attempt + 1;
  const landingDomain = landingDomainOf(request.history);
  const brand = BRANDS[landingDomain];
  const composed = composeMail({
    purpose: request.purpose,
    landingDomain,
    orderId,
    customerName: customerName(request.history),
    trackUrl: `${deps.publicUrl}/track-order/${orderId}`,
    invoiceNumber: invoiceOf(request)?.data.invoice?.number,
  });
  const { subject, text, html } = composed;
  const queued = await run({
    type: "QueueMail",
    mailId,
    orderId,
    purpose: request.purpose,
    provider: request.event.data.provider,
    transport: mailer.transport,
    messageId: `<${mailId}.${attempt}@${brand.mailDomain}>`,
    template: composed.template,
    from: senderFor(deps.from, brand.name),
    content: { to, subject, text, html },
    now: deps.now(),
  }, fresh ? { expectedVersion: 0n } : {});
  // Refused: already handled, not due yet, or another sender got there first. A fresh stream
  // found written is read after all: an attempt left open there is marked unknown, never resent.
  const recorded = queued.ok ? (queued.events[0] as MailQueued | undefined) : undefined;
  if (recorded === undefined) {
    if (fresh && !queued.ok) await deliverMail(deps, orderId, mailId);
    return;
  }
  await finish(deps, run, request, mailer, attempt, outgoing(recorded, to, { subject, text, html }));
};

/** Hands a recorded attempt to the provider and records its answer. */
const finish = async (
  deps: DeliverDeps,
  run: (command: MailCommand) => Promise<CommandOutcome>,
  request: MailRequest,
  mailer: Mailer,
  attempt: number,
  mail: Omit<OutgoingMail, "attachments">,
): Promise<void> => {
  const { mailId } = request;
  let sent;
  try {
    const invoice = invoiceOf(request);
    const attachments: MailAttachment[] = invoice
      ? [{ fileName: `invoice-${invoice.data.invoice?.number ?? request.orderId}.pdf`, contentType: "application/pdf", content: await deps.invoicePdf(request.history, invoice) }]
      : [];
    sent = await mailer.send({ ...mail, ...(attachments.length > 0 ? { attachments } : {}) });
  } catch (error) {
    const said = error instanceof MailRejected || error instanceof MailUnavailable ? error.providerText : error instanceof Error ? error.message : String(error);
    await run({
      type: "RecordMailFailure",
      mailId,
      attempt,
      reason: withoutAddresses(said).slice(0, 500),
      permanent: error instanceof MailRejected,
      retryDelaysMs: deps.retryDelaysMs,
      now: deps.now(),
    });
    return;
  }
  // Not inside the try: a sent mail whose record fails is not a failed mail. The attempt stays
  // queued, and is found so (and marked unknown) when the event is handled again.
  await run({ type: "RecordMailSent", mailId, attempt, transport: sent.transport, providerMessageId: sent.providerMessageId });
};
