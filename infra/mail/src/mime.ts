import MailComposer from "nodemailer/lib/mail-composer";
import type { OutgoingMail } from "./port.ts";

/** `<id@host>` whether or not the caller wrote the angle brackets. */
export const bracketed = (messageId: string): string => (messageId.startsWith("<") ? messageId : `<${messageId}>`);

/**
 * The mail as one RFC 5322 message: text and HTML as alternatives, attachments as base64 parts,
 * our Message-ID. The SES adapter sends these bytes and the outbox stores them, so what staff open
 * from the outbox is what a provider would have received. Nodemailer's composer does the MIME
 * work (header encoding, folding, boundaries); file and URL access are off so content can only
 * come from the mail itself.
 */
export const composeMime = async (mail: OutgoingMail): Promise<Buffer> =>
  new MailComposer({
    messageId: bracketed(mail.messageId),
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: (mail.attachments ?? []).map((attachment) => ({
      filename: attachment.fileName,
      contentType: attachment.contentType,
      content: attachment.content,
      contentTransferEncoding: "base64",
    })),
    disableFileAccess: true,
    disableUrlAccess: true,
  })
    .compile()
    .build();
