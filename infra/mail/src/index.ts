export { MailRejected, MailUnavailable, type MailAttachment, type Mailer, type MailTransport, type OutgoingMail, type SentMail } from "./port.ts";
export { composeMime } from "./mime.ts";
export { sesMailer, type SesSettings } from "./ses.ts";
export { sendgridMailer, type SendgridSettings } from "./sendgrid.ts";
export { outboxFileName, outboxMailer } from "./outbox.ts";
export { DEFAULT_MAIL_FROM, mailSettingsFrom, type MailSettings } from "./settings.ts";
export { mailerFor, type MailerChoice, type MailProvider } from "./mailer-for.ts";
export { withoutAddresses } from "./without-addresses.ts";
