import { isErased, type MailProvider, type MailPurpose, type MailTransport, type OrderEvent } from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";
import type { OrdersFold } from "./order-details-fold-orders.ts";
import { actorName, type TableFold } from "./order-details-fold-shared.ts";

/*
 * mail_history: one row per mail asked for (an upload, a resend, a reminder, an invoice), which
 * its outcome (sent, or failed and perhaps retrying) then updates.
 */

export type MailStatus = "requested" | "sent" | "failed";

export interface MailRow {
  /** The id of the event that asked for the mail (or that reported it, when nothing asked). */
  readonly mail_id: string;
  readonly order_id: string;
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
  readonly message_id: string | null;
  readonly reason: string | null;
  readonly attempt: number;
  readonly will_retry: boolean;
  readonly sent_at: string | null;
  readonly updated_at: string;
}

const isOpen = (mail: MailRow) => mail.status === "requested" || (mail.status === "failed" && mail.will_retry);

const MAIL_REQUESTS = {
  DocumentUploaded: "document",
  DocumentMailResent: "document",
  ReminderMailSent: "reminder",
  InvoiceSent: "invoice",
} as const satisfies Partial<Record<OrderEvent["type"], MailPurpose>>;

/**
 * `loaded`: the open mails of the orders whose outcomes the batch reports, and those its outcomes
 * name. A document or reminder mail links to the order's current document, read from `orders`
 * after it has stepped the same event (so an upload's mail links to the file just uploaded).
 */
export const foldMails = (loaded: readonly MailRow[], orders: Pick<OrdersFold, "current">): TableFold<MailRow> => {
  const mails = new Map(loaded.map((row) => [row.mail_id, row]));
  const changed = new Set<string>();
  const saveMail = (row: MailRow) => {
    mails.set(row.mail_id, row);
    changed.add(row.mail_id);
  };

  /** A mail as first requested: nothing linked, no recipient, no attempt yet. */
  const newMail = (mailId: string, orderId: string, position: number, at: string, purpose: MailRow["purpose"], provider: MailRow["mail_service_provider"], requestedBy: string): MailRow => ({
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
    message_id: null,
    reason: null,
    attempt: 0,
    will_retry: false,
    sent_at: null,
    updated_at: at,
  });

  const step = ({ event, eventId, streamPosition }: ProjectedEvent) => {
    const at = event.metadata.occurredAt;
    const position = Number(streamPosition);
    const requestedBy = actorName(event);
    switch (event.type) {
      case "DocumentUploaded":
      case "DocumentMailResent":
      case "ReminderMailSent":
      case "InvoiceSent": {
        const { data } = event;
        const purpose = MAIL_REQUESTS[event.type];
        // A document or reminder mail links to the current document (just uploaded, for an upload).
        const order = orders.current(data.orderId);
        const linked = purpose === "invoice" || order === undefined ? null : order;
        saveMail({
          ...newMail(eventId, data.orderId, position, at, purpose, data.provider, requestedBy),
          file1: linked?.file_name ?? null,
          file_path: linked?.stored_path ?? null,
          recipient: isErased(data.personal) ? null : data.personal.to,
        });
        break;
      }
      case "DocumentMailed":
      case "DocumentMailFailed": {
        const { data } = event;
        const causation = event.metadata.causationId;
        const byCause = causation === undefined ? undefined : mails.get(causation);
        const request =
          byCause?.order_id === data.orderId
            ? byCause
            : [...mails.values()]
                .filter((mail) => mail.order_id === data.orderId && mail.purpose === data.purpose && isOpen(mail))
                .reduce<MailRow | undefined>((latest, mail) => (latest === undefined || mail.stream_position > latest.stream_position ? mail : latest), undefined);
        // A mail nobody asked for in this order's stream (a reactor's own) still belongs in the history.
        const base: MailRow = request ?? newMail(eventId, data.orderId, position, at, data.purpose, data.provider, requestedBy);
        if (event.type === "DocumentMailed") {
          const mailed = event.data;
          saveMail({
            ...base,
            status: "sent",
            transport: mailed.transport,
            message_id: mailed.messageId,
            // A mail delivered after the permanent delete must not bring the file's name back.
            file1: orders.current(data.orderId)?.erased === true ? null : (base.file1 ?? mailed.fileName ?? null),
            recipient: base.recipient ?? (isErased(mailed.personal) ? null : mailed.personal.to),
            attempt: base.status === "failed" ? base.attempt + 1 : Math.max(base.attempt, 1),
            will_retry: false,
            sent_at: at,
            updated_at: at,
          });
        } else {
          saveMail({ ...base, status: "failed", reason: event.data.reason, attempt: event.data.attempt, will_retry: event.data.willRetry, updated_at: at });
        }
        break;
      }
      case "OrderPermanentlyDeleted": {
        // The rows stay (what was mailed, when, how); the address and the file's name go. Earlier
        // batches' rows are blanked by the projection (BatchChanges.erasedOrders).
        const { orderId } = event.data;
        for (const mail of mails.values()) {
          if (mail.order_id === orderId && (mail.recipient !== null || mail.file1 !== null || mail.file_path !== null)) {
            saveMail({ ...mail, recipient: null, file1: null, file_path: null });
          }
        }
        break;
      }
    }
  };

  return { step, changes: () => [...changed].map((id) => mails.get(id)!) };
};
