import type { EventStore, RecordedEvent } from "@etd/event-store";
import {
  decodeEvent,
  isErased,
  mailStream,
  orderStream,
  type EventId,
  type InvoiceSent,
  type MailEvent,
  isMailRequestType,
  MAIL_REQUEST_PURPOSES,
  type MailPurpose,
  type MailQueued,
  type MailSent,
  type MailRequestType,
  type OrderEvent,
  type OrderId,
} from "@etd/events";
import { UnreadableStream } from "../command-handler.ts";
import { mailDecider } from "./decide-mail.ts";
import type { MailState } from "./mail-state.ts";
import * as Result from "effect/Result";

/*
 * What the mail reactor and View Email Content read from the log: a mail's own stream (its state
 * and the attempt last recorded, with the content as sent) and the order event that asked for it.
 */

export interface MailRecord {
  readonly state: MailState;
  /** The stream's version: its last event's position in it (0 when empty). */
  readonly version: bigint;
  /** The last attempt recorded, decrypted: what was (or is being) handed to the provider. */
  readonly lastQueued: MailQueued | undefined;
  /** The provider's acceptance of that attempt, if recorded. */
  readonly lastSent: MailSent | undefined;
}

const decodeAll = <E>(streamId: string, recorded: readonly RecordedEvent[]): { readonly event: E; readonly eventId: string }[] =>
  recorded.map((raw) => {
    const decoded = decodeEvent(raw);
    if (Result.isFailure(decoded)) throw new UnreadableStream(streamId, decoded.failure.message);
    return { event: decoded.success as E, eventId: raw.eventId };
  });

export const readMail = async (store: EventStore, mailId: EventId): Promise<MailRecord> => {
  const streamId = mailStream(mailId);
  let state = mailDecider.initialState;
  let lastQueued: MailQueued | undefined;
  let lastSent: MailSent | undefined;
  const recorded = await store.readStream(streamId);
  for (const { event } of decodeAll<MailEvent>(streamId, recorded)) {
    state = mailDecider.evolve(state, event);
    if (event.type === "MailQueued") [lastQueued, lastSent] = [event, undefined];
    if (event.type === "MailSent" && event.data.attempt === lastQueued?.data.attempt) lastSent = event;
  }
  return { state, version: recorded.at(-1)?.streamPosition ?? 0n, lastQueued, lastSent };
};

export type MailRequestEvent = Extract<OrderEvent, { readonly type: MailRequestType }>;

export interface MailRequest {
  readonly mailId: EventId;
  readonly orderId: OrderId;
  readonly purpose: MailPurpose;
  readonly event: MailRequestEvent;
  /** The order's events up to and including the request: what the mail may say. */
  readonly history: readonly OrderEvent[];
}

/**
 * The request event named `mailId` in the order's stream, or undefined when there is none.
 * `through`: the request's position in the stream, when the caller knows it: what comes after the
 * request is neither read nor decrypted.
 */
export const readMailRequest = async (store: EventStore, orderId: OrderId, mailId: EventId, through?: bigint): Promise<MailRequest | undefined> => {
  const streamId = orderStream(orderId);
  const events = decodeAll<OrderEvent>(streamId, await store.readStream(streamId, through === undefined ? {} : { to: through }));
  const index = events.findIndex(({ eventId }) => eventId === mailId);
  const found = events[index];
  if (found === undefined || !isMailRequestType(found.event.type)) return undefined;
  const event = found.event as MailRequestEvent;
  return { mailId, orderId, purpose: MAIL_REQUEST_PURPOSES[event.type], event, history: events.slice(0, index + 1).map((entry) => entry.event) };
};

/** The request's recipient, unless the order's personal data has been erased since. */
export const recipientOf = (request: MailRequest): string | undefined =>
  isErased(request.event.data.personal) ? undefined : request.event.data.personal.to;

export const invoiceOf = (request: MailRequest): InvoiceSent | undefined => (request.event.type === "InvoiceSent" ? request.event : undefined);
