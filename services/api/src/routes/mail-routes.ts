import { mailStream, orderStream } from "@etd/events";
import type { MailContentAnswer } from "@etd/contract";
import { toMailId, toOrderId } from "@etd/contract/requests";
import { isErased } from "@etd/events";
import { readMail } from "@etd/write";
import { fail, ok } from "../http/reply.ts";
import { handleCommand, loadStream, mailDecider, orderDecider } from "@etd/write";
import type { Handlers } from "../http/endpoint.ts";
import { requestMetadata, type ApiDeps } from "../api-deps.ts";
import { actorOf, replyTo } from "../commands/run-command.ts";

/*
 * Commands on one mail (stream `mail-{mailId}`, DESIGN §8) that staff give from Email History
 * (ORDER-2, issue 12). The mail reactor follows the log and does the sending.
 */

export const RETRY_MAIL_MESSAGE = "The mail will be sent again.";

export const mailHandlers = (deps: ApiDeps) =>
  ({
    retryMail: async (context) => {
      const { input, user } = context;
      const orderId = toOrderId(input.orderId);
      const mailId = toMailId(input.mailId);
      // Who may retry is the order's rule (QUEUE-12's read-only), so the mail's decider is given
      // the order as it stands; the retry itself is decided, and written, on the mail's stream.
      const { state: order } = await loadStream(deps.store, orderStream(orderId), orderDecider);
      const outcome = await handleCommand(
        mailDecider,
        { type: "RequestMailRetry", mailId, orderId, actor: actorOf(user), order },
        { store: deps.store, streamId: mailStream(mailId), metadata: requestMetadata(context), now: deps.now },
      );
      return replyTo(outcome.ok ? { ok: true, position: outcome.position } : outcome, RETRY_MAIL_MESSAGE);
    },
    getMailContent: async ({ params }) => {
      const mailId = toMailId(params.mailId);
      // The log, not a read model: the content is kept sealed in the attempt's event only.
      const { lastQueued: queued, lastSent: sent } = await readMail(deps.store, mailId);
      // Erased with the order (its permanent delete), or never attempted: nothing to show.
      if (queued === undefined || isErased(queued.data.personal)) return fail(404, "The content of this mail is not available.");
      const { personal } = queued.data;
      const answer: MailContentAnswer = {
        mailId,
        orderId: queued.data.orderId,
        subject: personal.subject,
        from: queued.data.from,
        to: personal.to,
        html: personal.html,
        text: personal.text,
        transport: sent?.data.transport ?? null,
        sentAt: sent?.metadata.occurredAt ?? null,
      };
      return ok("Mail content loaded.", answer);
    },
  }) satisfies Partial<Handlers>;
