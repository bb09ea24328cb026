import { isErased, isMailEvent, MAIL_REQUEST_PURPOSES, stageAfter, type MailEvent, type MailProvider, type MailPurpose, type MailTransport } from "@etd/events";
import type { MailStatus } from "@etd/contract";
import type { ProjectedEvent } from "../engine/projection.ts";
import type { OrdersFold } from "./order-details-fold-orders.ts";
import { actorName, type TableFold } from "./order-details-fold-shared.ts";

/*
 * mail_history: one row per mail asked for (an upload, a resend, a reminder, an invoice), keyed by
 * the id of the order event that asked for it, which is also the mail's id. What then happens to
 * the mail is told by its own stream, `mail-{mailId}` (DESIGN §8): each of those events names the
 * mail, so it updates its row by primary key; the order's row (and its version) is not touched.
 */

export interface MailRow {
  /** The id of the event that asked for the mail: the mail's id. */
  readonly mail_id: string;
  readonly order_id: string;
  /** The request's position in the order's stream: the history's order. */
  readonly stream_position: number;
  readonly create_ts: string;
  readonly purpose: MailPurpose;
  /** ORDER-2 "Remainder Mail": 1 for a reminder to download, 0 otherwise. */
  readonly remainder_mail: 0 | 1;
  readonly mail_service_provider: MailProvider;
  readonly file1: string | null;
  readonly file_path: string | null;
  /** Who asked (a staff name, or a system's). */
  readonly requested_by: string;
  /** The customer's address: personal, blanked on a permanent delete. */
  readonly recipient: string | null;
  readonly status: MailStatus;
  readonly transport: MailTransport | null;
  /** The provider's reason for the current failure (personal: blanked on a permanent delete) or bounce (codes only). */
  readonly reason: string | null;
  readonly attempt: number;
  /** When the next automatic attempt is due, while one is. */
  readonly retry_at: string | null;
  readonly retry_requested: boolean;
  readonly sent_at: string | null;
  /** The report's own time, for delivered, bounced and complained. */
  readonly delivered_at: string | null;
  readonly updated_at: string;
}

/** A report already settled the mail: the sender's later steps do not move what is shown. */
const isReported = (status: MailStatus) => stageAfter(status, "queued") !== "queued";

/** The sender's own step (queued, sent, failed, unknown) unless a report already settled the mail. */
const senderStep = (row: MailRow, status: MailStatus): MailStatus => stageAfter(row.status, status);

/**
 * `loaded`: the rows of the mails the batch's mail events name (by primary key). A document or
 * reminder mail links to the order's current document, read from `orders` after it has stepped
 * the same event (so an upload's mail links to the file just uploaded).
 */
export interface MailsFold extends TableFold<MailRow> {
  /** The mail's row as of the events stepped so far (the audit reads it). */
  readonly current: (mailId: string) => MailRow | undefined;
}

/**
 * A mail of an erased order: its address is gone. Every request records one, so a row without it
 * was blanked by a permanent delete, or folded from a request whose key was already destroyed.
 */
export const isErasedMail = (row: MailRow | undefined): boolean => row !== undefined && row.recipient === null;

export const foldMails = (loaded: readonly MailRow[], orders: Pick<OrdersFold, "current">): MailsFold => {
  const mails = new Map(loaded.map((row) => [row.mail_id, row]));
  const changed = new Set<string>();
  const saveMail = (row: MailRow) => {
    mails.set(row.mail_id, row);
    changed.add(row.mail_id);
  };

  /** A mail as first requested: no attempt yet. */
  const newMail = (
    mailId: string,
    orderId: string,
    position: number,
    at: string,
    purpose: MailPurpose,
    provider: MailProvider,
    requestedBy: string,
  ): MailRow => ({
    mail_id: mailId,
    order_id: orderId,
    stream_position: position,
    create_ts: at,
    purpose,
    remainder_mail: purpose === "reminder" ? 1 : 0,
    mail_service_provider: provider,
    file1: null,
    file_path: null,
    requested_by: requestedBy,
    recipient: null,
    status: "requested",
    transport: null,
    reason: null,
    attempt: 0,
    retry_at: null,
    retry_requested: false,
    sent_at: null,
    delivered_at: null,
    updated_at: at,
  });

  const report = (row: MailRow, status: "delivered" | "bounced" | "complained", reportedAt: string, reason: string | null): Partial<MailRow> => {
    // A milder report after a graver one (a delivery after a complaint) changes nothing shown.
    if (stageAfter(row.status, status) !== status) return {};
    return { status, delivered_at: reportedAt, reason, retry_at: null };
  };

  const stepMail = (event: MailEvent, at: string) => {
    const { data } = event;
    const row = mails.get(data.mailId);
    if (row === undefined) {
      // Every mail is asked for by an event of its order's stream, appended before its own
      // stream starts; a mail event without its request is a bug elsewhere, not a row to invent.
      return;
    }
    let change: Partial<MailRow>;
    switch (event.type) {
      case "MailQueued":
        change = {
          status: senderStep(row, "queued"),
          transport: event.data.transport,
          attempt: event.data.attempt,
          reason: isReported(row.status) ? row.reason : null,
          retry_at: null,
          retry_requested: false,
        };
        break;
      case "MailSent":
        change = {
          status: senderStep(row, "sent"),
          transport: event.data.transport,
          attempt: event.data.attempt,
          sent_at: at,
        };
        break;
      case "MailFailed":
        change = isReported(row.status)
          ? { attempt: event.data.attempt }
          : {
              status: "failed",
              // A failure recorded after the delete, while the mail's key still existed, is erased too.
              reason: isErased(event.data.personal) || isErasedMail(row) ? null : event.data.personal.reason,
              attempt: event.data.attempt,
              retry_at: event.data.retryAt ?? null,
            };
        break;
      case "MailOutcomeUnknown":
        change = { status: senderStep(row, "unknown"), attempt: event.data.attempt };
        break;
      case "MailDelivered":
        change = report(row, "delivered", event.data.reportedAt, null);
        break;
      case "MailBounced":
        change = report(row, "bounced", event.data.reportedAt, event.data.reason);
        break;
      case "MailComplained":
        change = report(row, "complained", event.data.reportedAt, null);
        break;
      case "MailRetryRequested":
        change = { retry_requested: true };
        break;
    }
    saveMail({ ...row, ...change, updated_at: at });
  };

  const step = ({ event, eventId, streamPosition }: ProjectedEvent) => {
    const at = event.metadata.occurredAt;
    if (isMailEvent(event)) {
      stepMail(event, at);
      return;
    }
    switch (event.type) {
      case "DocumentUploaded":
      case "DocumentMailResent":
      case "ReminderMailSent":
      case "InvoiceSent": {
        const { data } = event;
        const purpose = MAIL_REQUEST_PURPOSES[event.type];
        // A document or reminder mail links to the current document (just uploaded, for an upload).
        const order = orders.current(data.orderId);
        const linked = purpose === "invoice" || order === undefined ? null : order;
        saveMail({
          ...newMail(eventId, data.orderId, Number(streamPosition), at, purpose, data.provider, actorName(event)),
          file1: linked?.file_name ?? null,
          file_path: linked?.stored_path ?? null,
          recipient: isErased(data.personal) ? null : data.personal.to,
        });
        break;
      }
      case "OrderPermanentlyDeleted": {
        // The rows stay (what was mailed, when, how); the address, the file's name and the
        // provider's answer go. Earlier batches' rows are blanked by the projection
        // (BatchChanges.erasedOrders).
        const { orderId } = event.data;
        for (const mail of mails.values()) {
          if (mail.order_id === orderId && (mail.recipient !== null || mail.file1 !== null || mail.file_path !== null || mail.reason !== null)) {
            saveMail({ ...mail, recipient: null, file1: null, file_path: null, reason: null });
          }
        }
        break;
      }
    }
  };

  return { step, current: (mailId) => mails.get(mailId), changes: () => [...changed].map((id) => mails.get(id)!) };
};
