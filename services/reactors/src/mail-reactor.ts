import { migrateTables, type RecordedEvent, type SqlDriver } from "@etd/event-store";
import { decodeEvent, isMailRequestType, orderStream, parseStreamName, type AnyEvent, type EventId, type OrderId } from "@etd/events";
import { handleCommand, orderDecider } from "@etd/write";
import * as Result from "effect/Result";
import type { Reactor, RunningReactor } from "@etd/event-store";
import { deliverMail, type DeliverDeps } from "./deliver-mail.ts";
import type { MailRequestEvent } from "@etd/write";

/*
 * The mail reactor (DESIGN §8) follows the log with its own checkpoint and sends what the events
 * ask for: each mail request (an upload, a resend, a reminder, an invoice), and each Retry staff
 * press. Work that falls due later — the next attempt of a mail that failed for a passing reason,
 * and the automatic reminder of a document nobody downloaded — is written, from the log, to
 * `mail_schedule`, which a timer reads; both the reactor and the timer only ever ask the deciders,
 * so a repeat after a crash decides nothing new.
 */

export const MAIL_REACTOR = "mail";

const SCHEDULE_SQL = /* sql */ `
create table if not exists mail_schedule (
  key text primary key,
  kind text not null check (kind in ('reminder', 'retry')),
  order_id text not null,
  mail_id text,
  due_at timestamptz not null
);
create index if not exists mail_schedule_due on mail_schedule (due_at);
`;

export interface MailReactorDeps extends DeliverDeps {
  readonly driver: SqlDriver;
  readonly reminderAfterMs: number;
}

/** How many mails are handed to providers at once (the P10 benchmark's direct side uses it too). */
export const MAILS_IN_FLIGHT = 8;

const log = (message: string) => console.error(`[mail] ${message}`);

export interface MailReactor extends Reactor {
  /** Does what is due in `mail_schedule` now; the timer calls it. */
  runDue(): Promise<void>;
}

/** A mail to send now; `fromLog`, the request itself as read from the log (see deliverMail). */
interface ToSend {
  readonly orderId: OrderId;
  readonly mailId: EventId;
  readonly fromLog?: { readonly streamPosition: bigint };
}

const reminderKey = (orderId: string) => `reminder:${orderId}`;
const retryKey = (mailId: string) => `retry:${mailId}`;

/** Runs `work` over `items`, at most `limit` at a time. */
const eachLimited = async <T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
};

export const createMailReactor = async (deps: MailReactorDeps): Promise<MailReactor> => {
  const { driver } = deps;
  await migrateTables(driver, SCHEDULE_SQL);
  // One mail is handled by one call at a time in this process; a second caller skips it.
  const inFlight = new Set<string>();

  const deliver = async (orderId: OrderId, mailId: EventId, fromLog?: { readonly streamPosition: bigint }) => {
    if (inFlight.has(mailId)) return;
    inFlight.add(mailId);
    try {
      await deliverMail(deps, orderId, mailId, fromLog);
    } finally {
      inFlight.delete(mailId);
    }
  };

  const schedule = async (key: string, kind: "reminder" | "retry", orderId: string, mailId: string | null, dueAt: string) => {
    await driver.query(
      `insert into mail_schedule (key, kind, order_id, mail_id, due_at) values ($1, $2, $3, $4, $5)
         on conflict (key) do update set due_at = excluded.due_at, mail_id = excluded.mail_id`,
      [key, kind, orderId, mailId, dueAt],
    );
  };
  const unschedule = (key: string) => driver.query("delete from mail_schedule where key = $1", [key]);

  /**
   * Bookkeeping of what falls due later; returns the mail to send now, if the event asks for one,
   * with the request as read from the log when the event is the request itself.
   */
  const note = async (recorded: RecordedEvent, event: AnyEvent): Promise<ToSend | undefined> => {
    const at = Date.parse(event.metadata.occurredAt);
    switch (event.type) {
      case "DocumentUploaded":
        await schedule(reminderKey(event.data.orderId), "reminder", event.data.orderId, null, new Date(at + deps.reminderAfterMs).toISOString());
        break;
      case "DocumentDownloaded":
      case "ReminderMailSent":
        await unschedule(reminderKey(event.data.orderId));
        break;
      case "OrderPermanentlyDeleted":
        await driver.query("delete from mail_schedule where order_id = $1", [event.data.orderId]);
        break;
      case "MailFailed":
        if (event.data.retryAt) await schedule(retryKey(event.data.mailId), "retry", event.data.orderId, event.data.mailId, event.data.retryAt);
        break;
      case "MailQueued":
        // Only a later attempt can have been scheduled (after a MailFailed with retryAt).
        if (event.data.attempt > 1) await unschedule(retryKey(event.data.mailId));
        break;
      case "MailRetryRequested":
        return { orderId: event.data.orderId, mailId: event.data.mailId };
    }
    if (parseStreamName(recorded.streamId)?.category === "order" && isMailRequestType(event.type)) {
      return { orderId: (event as MailRequestEvent).data.orderId, mailId: recorded.eventId as EventId, fromLog: recorded };
    }
    return undefined;
  };

  const reactToBatch = async (batch: readonly RecordedEvent[]) => {
    const toSend: ToSend[] = [];
    for (const recorded of batch) {
      const decoded = decodeEvent(recorded);
      // An event this version cannot read is no mail request of ours; the projections report it.
      if (Result.isFailure(decoded)) continue;
      const mail = await note(recorded, decoded.success);
      if (mail) toSend.push(mail);
    }
    await eachLimited(toSend, MAILS_IN_FLIGHT, ({ orderId, mailId, fromLog }) => deliver(orderId, mailId, fromLog));
  };

  const runDue = async (): Promise<void> => {
    const rows = await driver.query("select key, kind, order_id, mail_id, due_at from mail_schedule where due_at <= $1 order by due_at limit 100", [deps.now().toISOString()]);
    await eachLimited(rows, MAILS_IN_FLIGHT, async (row) => {
      const orderId = row.order_id as OrderId;
      try {
        if (row.kind === "retry") {
          await deliver(orderId, row.mail_id as EventId);
        } else {
          const outcome = await handleCommand(
            orderDecider,
            { type: "SendAutomaticReminder", orderId, reminderAfterMs: deps.reminderAfterMs, now: deps.now() },
            { store: deps.store, streamId: orderStream(orderId), metadata: { actor: { kind: "system", name: "reminders" }, correlationId: `reminder-${orderId}` }, now: deps.now },
          );
          if (!outcome.ok) {
            // Not due by the order's own clock (a skewed one here): look again in an hour.
            log(`the reminder of order ${orderId} was refused: ${outcome.refusal.message}`);
            await driver.query("update mail_schedule set due_at = due_at + interval '1 hour' where key = $1 and due_at = $2", [row.key, row.due_at]);
            return;
          }
        }
        // Only the row as read: a newer due time written meanwhile stays.
        await driver.query("delete from mail_schedule where key = $1 and due_at = $2", [row.key, row.due_at]);
      } catch (error) {
        log(`${row.key as string} failed and stays due: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  };

  return {
    name: MAIL_REACTOR,
    react: (event) => reactToBatch([event]),
    reactToBatch,
    runDue,
  };
};

/** Polls `mail_schedule` every `pollMs`; stop() waits for a round in progress. */
/** Reads the schedule every `pollMs` while `following` holds the mail reactor's lease: one process at a time sends. */
export const startMailSchedule = (reactor: MailReactor, pollMs: number, following: RunningReactor) => {
  let stopped = false;
  let round: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    round = (following.holdsLease() ? reactor.runDue() : Promise.resolve())
      .catch((error: unknown) => log(`the schedule could not be read: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, pollMs);
      });
  };
  timer = setTimeout(tick, pollMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
    },
  };
};
