import path from "node:path";
import { startReactor, startSealer, type ReactorHost, type SealedSqlEventStore } from "@etd/event-store";
import { renderInvoicePdf } from "@etd/documents";
import { mailerFor, type MailSettings } from "@etd/mail";
import { DEFAULT_MAIL_FROM } from "@etd/mail/settings";
import type { PdfRenderer } from "@etd/pdf";
import type { DocumentStorage } from "@etd/storage";
import { erasureReactor } from "./erasure.ts";
import { createMailReactor, startMailSchedule } from "./mail-reactor.ts";

export interface MailingSettings {
  /** Where travellers reach the public pages; mails link to its /track-order/{orderId}. */
  readonly publicUrl: string;
  /** An automatic reminder goes this long after an upload the customer has not downloaded. */
  readonly reminderAfterMs: number;
  /** The waits before the 2nd, 3rd… attempt of a mail that failed for a passing reason. */
  readonly retryDelaysMs: readonly number[];
}

/** Unset PUBLIC_URL, REMINDER_AFTER_HOURS and MAIL_RETRY_SECONDS: the README's defaults (port 3000). */
export const DEFAULT_MAILING: MailingSettings = { publicUrl: "http://localhost:3000", reminderAfterMs: 24 * 3_600_000, retryDelaysMs: [60_000, 300_000, 1_800_000, 7_200_000] };

export interface Stoppable {
  stop(): Promise<void>;
}

export interface ReactorsOptions {
  /** Where the outbox of undelivered test mail lives (DATA_DIR/outbox unless the mail settings say). */
  readonly dataDir: string;
  /** The providers' settings; without them both labels write to DATA_DIR/outbox. */
  readonly mail?: Partial<MailSettings>;
  readonly mailing?: Partial<MailingSettings>;
  /** How often the mail schedule (retries, reminders) is read (default 15 s). */
  readonly mailSchedulePollMs?: number;
  readonly now: () => Date;
}

/**
 * The reactors role: erasure, mail (with its schedule of retries and reminders) and the chain's
 * sealer (ADR 0021), each following the log under its own lease and checkpoint.
 */
export const startReactors = async (
  host: ReactorHost & { readonly store: SealedSqlEventStore },
  resources: { readonly storage: DocumentStorage; readonly pdf: PdfRenderer },
  options: ReactorsOptions,
): Promise<readonly Stoppable[]> => {
  const { store, driver } = host;
  const mailSettings: MailSettings = { from: DEFAULT_MAIL_FROM, ses: undefined, sendgrid: undefined, outboxDir: path.join(options.dataDir, "outbox"), ...options.mail };
  const mailing: MailingSettings = { ...DEFAULT_MAILING, ...options.mailing };
  const erasure = await startReactor(host, erasureReactor({ forget: (streamId) => store.forget(streamId), storage: resources.storage, readStream: (streamId) => store.readStream(streamId), outboxDir: mailSettings.outboxDir }));
  const mail = await createMailReactor({
    store,
    driver,
    mailers: { AWS: mailerFor("AWS", mailSettings).mailer, Sendgrid: mailerFor("Sendgrid", mailSettings).mailer },
    from: mailSettings.from,
    publicUrl: mailing.publicUrl,
    retryDelaysMs: mailing.retryDelaysMs,
    reminderAfterMs: mailing.reminderAfterMs,
    invoicePdf: (history, invoice) => renderInvoicePdf(resources.pdf, history, invoice),
    now: options.now,
  });
  const following = await startReactor(host, mail);
  const schedule = startMailSchedule(mail, options.mailSchedulePollMs ?? 15_000, following);
  const sealer = startSealer(driver, { onError: (error) => console.error("[sealer]", error) });
  return [erasure, following, schedule, sealer];
};
