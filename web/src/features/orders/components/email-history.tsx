import type { MailHistoryEntry, OrderDetails } from "@etd/contract";
import { ORDER_PAGE, ORDERS } from "@etd/contract/endpoints";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { MAIL_CONTENT_UNAVAILABLE, mailContentQuery } from "../utils/order-queries.ts";
import { chatLinkFor } from "../chat-link.ts";
import { formatMoment } from "../format-moment.ts";
import type { OrderCommands } from "../hooks/use-decisive-command.ts";
import { emailHistoryRows, lateMailBanner, mailBadge, mailError, mayRetry, NOT_SENT_WARNING, notSentAfterAnHour, transportNote } from "../mail-rows.ts";
import { DocumentLink } from "./document-link.tsx";
import { EmailForm, mailUnavailable } from "./email-form.tsx";
import { HistoryTable } from "../sections/history-table.tsx";

const PROVIDER_LABEL: Record<string, string> = { aws: "AWS", sendgrid: "Sendgrid" };

/** The mail the customer is sent with the document: the Whatsapp message when the mail's own text cannot be read. */
const emailContentOf = (order: OrderDetails): string =>
  [
    `Dear ${order.first_name ?? "traveller"},`,
    `Your eTravel document for order ${order.order_id} is ready.`,
    "You can download it from the link in your email, or from our website with your order ID and email address.",
    "Thank you.",
  ].join("\n");

/** The clock the one-hour warning reads, moved on every minute so that a mail turns late while the page is open. */
const useNow = (everyMs = 60_000): Date => {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
};

/**
 * ORDER-12: View Email Content shows the mail as it was sent (GET /admin/mail-content/{mailId}):
 * subject, sender, recipient, when, and the HTML in a sandboxed frame (no script, no same-origin
 * access, no navigation); with Close and Send Whatsapp Message (a chat link from the order's
 * phone, QUEUE-13).
 */
const EmailContentDialog = ({
  order,
  mail,
  isOpen,
  onClose,
}: {
  readonly order: OrderDetails;
  readonly mail: MailHistoryEntry | undefined;
  readonly isOpen: boolean;
  readonly onClose: () => void;
}) => {
  const content = useQuery({ ...mailContentQuery(mail?.id ?? ""), enabled: isOpen && mail !== undefined });
  const answer = content.data ?? undefined;
  const chat = chatLinkFor(order.phone_number, order.country_phone_code);
  const message = answer?.text.trim() ? answer.text : emailContentOf(order);
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={(open) => !open && onClose()} isDismissable className="modal-overlay">
      <Modal className="modal modal-wide">
        <Dialog className="dialog">
          <Heading slot="title" className="dialog-title">
            Email Content
          </Heading>
          {mail === undefined ? (
            <p className="muted">No mail has been sent for this order yet.</p>
          ) : content.isPending ? (
            <p className="muted">Loading the mail…</p>
          ) : answer === undefined ? (
            <p className="muted order-mail-unavailable">{MAIL_CONTENT_UNAVAILABLE}</p>
          ) : (
            <>
              <dl className="order-mail-headers">
                <dt>Subject</dt>
                <dd>{answer.subject}</dd>
                <dt>From</dt>
                <dd>{answer.from}</dd>
                <dt>To</dt>
                <dd>{answer.to}</dd>
                <dt>Sent</dt>
                <dd>{answer.sentAt ? formatMoment(answer.sentAt) : "Not sent yet"}</dd>
              </dl>
              {/* sandbox="": the mail's HTML runs no script and cannot reach this page or navigate it. */}
              <iframe className="order-mail-frame" title={`Mail: ${answer.subject}`} sandbox="" srcDoc={answer.html} />
            </>
          )}
          <div className="dialog-actions">
            {chat ? (
              <a className="button button-primary" href={`${chat}?text=${encodeURIComponent(message)}`} target="_blank" rel="noopener noreferrer">
                Send Whatsapp Message
              </a>
            ) : (
              <span className="muted">No phone number for a Whatsapp message</span>
            )}
            <Button className="button" onPress={onClose}>
              Close
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
};

interface EmailHistoryTableProps {
  readonly rows: readonly MailHistoryEntry[];
  readonly now: Date;
  readonly readOnly: boolean;
  readonly busy: boolean;
  readonly onRetry: (mail: MailHistoryEntry) => void;
  readonly onView: (mail: MailHistoryEntry) => void;
}

/** The table itself: the spec's columns, then the mail's state and what can be done with it. */
export const EmailHistoryTable = ({ rows, now, readOnly, busy, onRetry, onView }: EmailHistoryTableProps) => {
  const banner = lateMailBanner(rows, now);
  return (
    <>
      {banner && (
        <p className="order-mail-banner" role="status">
          {banner}
        </p>
      )}
      <HistoryTable
        scrollClassName="table-scroll"
        className="order-email-history"
        headers={["#", "Order ID", "Download link", "Date and Time", "Mail Provider", "Remainder Mail", "State", <span className="visually-hidden">Actions</span>]}
        isEmpty={rows.length === 0}
      >
        {rows.map((mail, index) => {
          const badge = mailBadge(mail);
          const late = notSentAfterAnHour(mail, now);
          const transport = transportNote(mail);
          const error = mailError(mail);
          return (
            <tr key={mail.id} data-mail-id={mail.id} data-mail-status={mail.status} className={late ? "order-mail-late" : undefined}>
              <td>{index + 1}</td>
              <td>{mail.order_id}</td>
              <td>
                {mail.purpose === "invoice" ? (
                  "Invoice"
                ) : (
                  <DocumentLink path={mail.uploadDoc.path} label={mail.uploadDoc.file1 ?? "Download"} missing={mail.uploadDoc.file1 ?? "—"} />
                )}
              </td>
              <td>{formatMoment(mail.create_ts)}</td>
              <td>{PROVIDER_LABEL[mail.uploadDoc.mail_service_provider.toLowerCase()] ?? mail.uploadDoc.mail_service_provider}</td>
              <td>{mail.remainder_mail === 1 ? "Yes" : "No"}</td>
              <td className="order-mail-state">
                <span className={`mail-badge mail-badge-${badge.tone}`} title={mail.retry_at ? formatMoment(mail.retry_at) : undefined}>
                  {badge.label}
                </span>
                {mail.retry_requested && <span className="order-mail-note">Retry requested</span>}
                {late && <span className="order-mail-warning">{NOT_SENT_WARNING}</span>}
                {transport && <span className={mail.transport === "outbox" ? "order-mail-note order-mail-outbox" : "order-mail-note"}>{transport}</span>}
                {error && <span className="order-mail-error">{error}</span>}
              </td>
              <td className="order-mail-actions">
                <Button className="button button-small" onPress={() => onView(mail)} aria-label={`View the content of mail ${String(index + 1)}`}>
                  View
                </Button>
                {mayRetry(mail, readOnly) && (
                  <Button className="button button-small" isDisabled={busy} onPress={() => onRetry(mail)} aria-label={`Retry mail ${String(index + 1)}`}>
                    Retry
                  </Button>
                )}
              </td>
            </tr>
          );
        })}
      </HistoryTable>
    </>
  );
};

/**
 * ORDER-2: the mails that carried the document, a reminder or an invoice, each with its state
 * (issue 12), then Resend Mail via each provider.
 */
export const EmailHistory = ({ order, commands, readOnly }: { readonly order: OrderDetails; readonly commands: OrderCommands; readonly readOnly: boolean }) => {
  const [viewing, setViewing] = useState<{ readonly mail: MailHistoryEntry | undefined } | undefined>(undefined);
  const now = useNow();
  const rows = emailHistoryRows(order);
  return (
    <section className="record-section order-section" aria-labelledby="email-history-title" data-section="email-history">
      <div className="table-toolbar">
        <h2 id="email-history-title">Email History</h2>
        {/* The latest mail; each row's View opens its own. */}
        <Button className="button" onPress={() => setViewing({ mail: rows.at(-1) })}>
          View Email Content
        </Button>
      </div>
      <EmailHistoryTable
        rows={rows}
        now={now}
        readOnly={readOnly}
        busy={commands.busy !== undefined}
        onView={(mail) => setViewing({ mail })}
        onRetry={(mail) => void commands.run("Retry", ORDER_PAGE.retryMail, { body: { orderId: order.order_id, mailId: mail.id } })}
      />
      {!readOnly && (
        <EmailForm
          initialEmail={order.email ?? ""}
          busy={commands.busy !== undefined}
          unavailable={mailUnavailable(order)}
          buttons={[
            { label: "Resend Mail via AWS", provider: "aws" },
            { label: "Resend Mail via Sendgrid", provider: "sendgrid" },
          ]}
          onSend={(email, provider) =>
            commands.run(`Resend Mail via ${PROVIDER_LABEL[provider]}`, ORDERS.resendMail, { body: { orderId: order.order_id, email, mailServiceProvider: provider } })
          }
        />
      )}
      <EmailContentDialog order={order} mail={viewing?.mail} isOpen={viewing !== undefined} onClose={() => setViewing(undefined)} />
    </section>
  );
};
