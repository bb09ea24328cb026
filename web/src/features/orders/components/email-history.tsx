import type { MailHistoryEntry, OrderDetails } from "@etd/contract";
import { useState } from "react";
import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { resendMail } from "../api/order-commands.ts";
import { chatLinkFor } from "../chat-link.ts";
import { formatMoment } from "../format-moment.ts";
import type { OrderCommands } from "../hooks/use-decisive-command.ts";
import { DocumentLink } from "./document-link.tsx";
import { EmailForm } from "./email-form.tsx";

const PROVIDER_LABEL: Record<string, string> = { aws: "AWS", sendgrid: "Sendgrid" };

/** The mail the customer is sent with the document, as the Email Content dialog shows it (ORDER-12). */
export const emailContentOf = (order: OrderDetails): string =>
  [
    `Dear ${order.first_name ?? "traveller"},`,
    `Your eTravel document for order ${order.order_id} is ready.`,
    "You can download it from the link in your email, or from our website with your order ID and email address.",
    "Thank you.",
  ].join("\n");

/** ORDER-12: View Email Content, with Close and Send Whatsapp Message (a chat link from the order's phone, QUEUE-13). */
const EmailContentDialog = ({ order, isOpen, onClose }: { readonly order: OrderDetails; readonly isOpen: boolean; readonly onClose: () => void }) => {
  const content = emailContentOf(order);
  const chat = chatLinkFor(order.phone_number, order.country_phone_code);
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={(open) => !open && onClose()} isDismissable className="modal-overlay">
      <Modal className="modal modal-wide">
        <Dialog className="dialog">
          <Heading slot="title" className="dialog-title">
            Email Content
          </Heading>
          <pre className="order-email-content">{content}</pre>
          <div className="dialog-actions">
            {chat ? (
              <a className="button button-primary" href={`${chat}?text=${encodeURIComponent(content)}`} target="_blank" rel="noopener noreferrer">
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

/** ORDER-2: the mails that carried the document or a reminder, then Resend Mail via each provider. */
export const EmailHistory = ({ order, commands, readOnly }: { readonly order: OrderDetails; readonly commands: OrderCommands; readonly readOnly: boolean }) => {
  const [contentOpen, setContentOpen] = useState(false);
  const rows: readonly MailHistoryEntry[] = order.mailHistory;
  return (
    <section className="record-section order-section" aria-labelledby="email-history-title" data-section="email-history">
      <div className="table-toolbar">
        <h2 id="email-history-title">
          Email History
        </h2>
        <Button className="button" onPress={() => setContentOpen(true)}>
          View Email Content
        </Button>
      </div>
      <div className="table-scroll">
        <table className="data-table order-email-history">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Order ID</th>
              <th scope="col">Download link</th>
              <th scope="col">Date and Time</th>
              <th scope="col">Mail Provider</th>
              <th scope="col">Remainder Mail</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={6} className="table-empty">
                  No record found
                </td>
              </tr>
            ) : (
              rows.map((mail, index) => (
                <tr key={mail.id}>
                  <td>{index + 1}</td>
                  <td>{mail.order_id}</td>
                  <td>
                    <DocumentLink path={mail.uploadDoc.path} label={mail.uploadDoc.file1 ?? "Download"} missing={mail.uploadDoc.file1 ?? "—"} />
                  </td>
                  <td>{formatMoment(mail.create_ts)}</td>
                  <td>{PROVIDER_LABEL[mail.uploadDoc.mail_service_provider] ?? mail.uploadDoc.mail_service_provider}</td>
                  <td>{mail.remainder_mail === 1 ? "Yes" : "No"}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {!readOnly && (
        <EmailForm
          initialEmail={order.email ?? ""}
          busy={commands.busy !== undefined}
          buttons={[
            { label: "Resend Mail via AWS", provider: "aws" },
            { label: "Resend Mail via Sendgrid", provider: "sendgrid" },
          ]}
          onSend={(email, provider) => commands.run(`Resend Mail via ${PROVIDER_LABEL[provider]}`, () => resendMail(order.order_id, email, provider))}
        />
      )}
      <EmailContentDialog order={order} isOpen={contentOpen} onClose={() => setContentOpen(false)} />
    </section>
  );
};
