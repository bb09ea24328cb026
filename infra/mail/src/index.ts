export { MailRejected, MailUnavailable, type MailAttachment, type Mailer, type OutgoingMail } from "./port.ts";
export { sesMailer } from "./ses.ts";
export { sendgridMailer } from "./sendgrid.ts";
export { outboxFileName, outboxMailer } from "./outbox.ts";
export { DEFAULT_MAIL_FROM, mailSettingsFrom, type MailSettings } from "./settings.ts";
export { mailerFor } from "./mailer-for.ts";
export { withoutAddresses } from "./without-addresses.ts";
