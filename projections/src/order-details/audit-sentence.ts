import type { Actor, AnyEvent, MailPurpose, MailTransport, OrderStatus, Role } from "@etd/events";
import { formatInvoiceNumber, isErased, statusAfter, statusLabel } from "@etd/events";
import { durationText } from "@etd/contract";

/*
 * One readable sentence per event for the audit timeline (DESIGN §5, CARD-4): who did what, and
 * what changed. The sentence names staff (they are accountable), never the traveller: no names,
 * e-mail addresses, IPs, or comment text, which may quote them. Everything personal stays in the
 * event's encrypted part and in the detail page. It does quote what staff work with while the
 * order exists (a file's name, a transaction's id and merchant, a provider's answer, a device),
 * all read from the sealed part: once that reads as erased the sentence says "the document",
 * "a transaction" and leaves the rest out.
 */

/** What a sentence calls a file whose name is erased. */
export const ERASED_FILE = "the document";

/** A staff member as the timeline last knew them, to name the target of a staff event. */
export interface KnownStaff {
  readonly name: string;
  readonly role: Role;
  readonly email: string;
}

/** What a sentence needs beyond its event: the state just before it. */
export interface AuditContext {
  /** The order's current document before this event (the one a resend or reminder mails). */
  readonly currentFileName: string | undefined;
  readonly staff: (staffId: string) => KnownStaff | undefined;
  readonly gatewayName: (gatewayId: string) => string | undefined;
}

/** "Maria Santos (Manager)", "order-intake", "The traveller". */
export const actorLabel = (actor: Actor): string => {
  switch (actor.kind) {
    case "staff":
      return `${actor.name} (${actor.role})`;
    case "system":
      return actor.name;
    case "customer":
      return "The traveller";
  }
};

const move = (from: OrderStatus, to: OrderStatus) => `status ${statusLabel(from)} → ${statusLabel(to)}`;

const MAIL_NAMES: { readonly [P in MailPurpose]: string } = {
  document: "document mail",
  reminder: "download reminder mail",
  invoice: "invoice mail",
};

const TRANSPORT_NAMES: { readonly [T in MailTransport]: string } = {
  ses: "AWS SES",
  sendgrid: "Sendgrid",
  outbox: "outbox (.eml file, no provider credentials)",
};

const FLAG_NAMES = [
  ["whatsapp", "Whatsapp"],
  ["telephone", "Telephone"],
  ["statusRefund", "Refund"],
  ["voided", "Voided"],
  ["chargeBack", "Chargeback"],
  ["reportError", "ReportError"],
] as const;

const isSelf = (actor: Actor, staffId: string) => actor.kind === "staff" && actor.id === staffId;

/** "Paolo Reyes", or "team member 9b1e44" for someone the timeline never saw added. */
const staffName = (context: AuditContext, staffId: string) => context.staff(staffId)?.name ?? `team member ${staffId}`;

const count = (n: number, one: string, many: string) => `${String(n)} ${n === 1 ? one : many}`;

/**
 * The exportable reports as their screens are titled, and what their rows are: Order Processed
 * (ADMIN-7) is a list of orders, the others tables of counts.
 */
const REPORTS: Readonly<Record<string, { readonly title: string; readonly one: string; readonly many: string }>> = {
  "country-orders": { title: "the Country Orders report", one: "row", many: "rows" },
  "processed-by": { title: "the Processed By report", one: "row", many: "rows" },
  "order-processed": { title: "the Order Processed list", one: "order", many: "orders" },
};

/** A report's days as the screen asked for them: " (2025-03-01 to 2025-03-10)", or nothing for all days. */
const daysOf = (fromDate: string | undefined, toDate: string | undefined) =>
  fromDate !== undefined && toDate !== undefined
    ? ` (${fromDate} to ${toDate})`
    : fromDate !== undefined
      ? ` (from ${fromDate})`
      : toDate !== undefined
        ? ` (up to ${toDate})`
        : "";

/**
 * "exported 120 orders from newOrder". The search itself is left out: staff search by a
 * traveller's name or e-mail, which the timeline never shows (the event keeps it for the audit).
 */
const exportSentence = (data: {
  what: "queue" | "search" | "report";
  folderName?: string;
  report?: string;
  fromDate?: string;
  toDate?: string;
  rows: number;
}) => {
  switch (data.what) {
    case "queue":
      return `exported ${count(data.rows, "order", "orders")} from ${data.folderName ?? "a queue"} as CSV`;
    case "search":
      return `exported ${count(data.rows, "order", "orders")} found by a search in ${data.folderName ?? "a queue"} as CSV`;
    case "report": {
      // A name recorded by another version of the API is shown as it was recorded.
      const known = data.report === undefined ? undefined : REPORTS[data.report];
      const title = known?.title ?? (data.report === undefined ? "a report" : `the ${data.report} report`);
      return `exported ${count(data.rows, known?.one ?? "row", known?.many ?? "rows")} of ${title}${daysOf(data.fromDate, data.toDate)} as CSV`;
    }
  }
};


/** What the event did, without the actor: "moved the order from Pending to Completed". */
export const describeChange = (event: AnyEvent, context: AuditContext): string => {
  switch (event.type) {
    case "OrderPlaced": {
      const { data } = event;
      const due = data.processingDate > data.createdAt.slice(0, 10) ? `; a future order, due ${data.processingDate}` : "";
      return `placed the order (${data.processingMode}, ${data.landingDomain} domain)${due}`;
    }
    case "OrderAssigned": {
      const { data } = event;
      const whom = isSelf(event.metadata.actor, data.assignee.id) ? "themselves" : data.assignee.name;
      const why = data.reason === undefined ? "" : ` (Take next: ${data.reason})`;
      return `assigned the order to ${whom}${why}; ${move(data.from, statusAfter(event)!)}`;
    }
    case "OrderStatusChanged": {
      const { from, to } = event.data;
      if (to === "Deleted") return `deleted the order (soft delete; it was ${statusLabel(from)})`;
      if (from === "Deleted") return `restored the order from Deleted to ${statusLabel(to)}`;
      return `moved the order from ${statusLabel(from)} to ${statusLabel(to)}`;
    }
    case "OrderMovedToOriginalFolder": {
      const { from, to, previousAssignee } = event.data;
      const cleared = previousAssignee === undefined ? "" : ` and took it off ${previousAssignee.name}`;
      return `moved the order back to ${statusLabel(to)} Orders${cleared}; ${move(from, to)}`;
    }
    case "OrderRefundRequested":
      return `asked for a refund, refund date ${event.data.refundDate}; ${move(event.data.from, statusAfter(event)!)}`;
    case "OrderRefunded":
      return `marked the refund as paid back; ${move("Refund", statusAfter(event)!)}`;
    case "OrderChargebackMarked":
      return `marked the order as a chargeback; ${move(event.data.from, statusAfter(event)!)}`;
    case "OrderPermanentlyDeleted":
      return "deleted the order permanently: its personal data is erased, its history kept";
    case "RemarkAdded": {
      const { data } = event;
      const flags = FLAG_NAMES.filter(([key]) => data[key]).map(([, name]) => name);
      const signed = event.metadata.actor.kind === "staff" && event.metadata.actor.name === data.remarkerName ? "" : ` signed ${data.remarkerName}`;
      return `added a comment${signed} (${flags.length === 0 ? "no flags" : `flags: ${flags.join(", ")}`})`;
    }
    case "DocumentUploaded": {
      const { personal } = event.data;
      return `uploaded ${isErased(personal) ? ERASED_FILE : personal.fileName} and asked ${event.data.provider} to mail it`;
    }
    case "DocumentMailResent":
      return `asked ${event.data.provider} to mail ${context.currentFileName ?? ERASED_FILE} again`;
    case "ReminderMailSent":
      return `asked ${event.data.provider} to send a reminder to download ${context.currentFileName ?? ERASED_FILE}`;
    case "InvoiceSent":
      return `asked ${event.data.provider} to mail the invoice`;
    // A mail's own stream (DESIGN §8): the sender's steps, the provider's reports, staff's Retry.
    // Reasons hold no address: a failure's is the provider's answer with addresses replaced (and
    // sealed, since it may still quote the recipient), a bounce's only codes (ADR 0019).
    case "MailQueued": {
      const { data } = event;
      return `queued attempt ${String(data.attempt)} of the ${MAIL_NAMES[data.purpose]} for ${data.provider}, via ${TRANSPORT_NAMES[data.transport]}`;
    }
    case "MailSent":
      return `handed attempt ${String(event.data.attempt)} of the mail to ${TRANSPORT_NAMES[event.data.transport]}, which accepted it as ${event.data.providerMessageId}`;
    case "MailFailed": {
      const { data } = event;
      const next = data.retryAt === undefined ? "gave up until someone presses Retry" : `will try again at ${data.retryAt}`;
      const reason = isErased(data.personal) ? "" : ` (${data.personal.reason})`;
      return `could not send attempt ${String(data.attempt)} of the mail${reason}; ${next}`;
    }
    case "MailOutcomeUnknown":
      return `found attempt ${String(event.data.attempt)} of the mail without an outcome; it is not sent again unless a delivery report or Retry settles it`;
    case "MailDelivered":
      return `reported the mail delivered by ${TRANSPORT_NAMES[event.data.transport]} at ${event.data.reportedAt}`;
    case "MailBounced": {
      const { data } = event;
      return `reported the mail ${data.permanent ? "bounced for good" : "bounced for now"} by ${TRANSPORT_NAMES[data.transport]} at ${data.reportedAt}: ${data.reason}`;
    }
    case "MailComplained":
      return `reported that the recipient marked the mail as spam (${TRANSPORT_NAMES[event.data.transport]}, ${event.data.reportedAt})`;
    case "MailRetryRequested":
      return "pressed Retry: the mail will be sent again";
    case "DocumentDownloaded": {
      const { personal } = event.data;
      if (isErased(personal)) return `downloaded ${ERASED_FILE}`;
      const device = [personal.browser, personal.os && `on ${personal.os}`, personal.deviceType && `(${personal.deviceType})`].filter(Boolean).join(" ");
      return `downloaded ${personal.fileName}${device ? ` with ${device}` : ""}`;
    }
    case "TransactionDetailsRecorded": {
      const { personal } = event.data;
      return isErased(personal) ? "recorded a transaction's details" : `recorded transaction ${personal.transactionId} with merchant ${personal.merchantName}`;
    }
    case "DefencePackGenerated": {
      const { personal } = event.data;
      return `generated defence pack ${String(event.data.packType)}${isErased(personal) ? "" : ` (${personal.fileName})`}`;
    }
    case "StaffMemberAdded":
      return `added ${event.data.name} to the team as ${event.data.role}`;
    case "StaffMemberUpdated": {
      const { data } = event;
      const before = context.staff(data.staffId);
      if (before === undefined) return `updated the profile of ${data.name} (${data.role})`;
      const changes = [
        ...(before.name === data.name ? [] : [`renamed ${before.name} to ${data.name}`]),
        ...(before.role === data.role ? [] : [`changed the role of ${data.name} from ${before.role} to ${data.role}`]),
        ...(before.email.toLowerCase() === data.email.toLowerCase() ? [] : [`changed the e-mail address of ${data.name}`]),
      ];
      return changes.length === 0 ? `saved the profile of ${data.name} without changes` : changes.join(", ");
    }
    case "StaffMemberDeleted":
      return `removed ${staffName(context, event.data.staffId)} from the team`;
    case "StaffCapacitySet": {
      const { capacity, staffId } = event.data;
      return capacity === undefined
        ? `removed the capacity limit of ${staffName(context, staffId)}`
        : `set the capacity of ${staffName(context, staffId)} to ${count(capacity, "open order", "open orders")}`;
    }
    case "PasswordChanged":
      return isSelf(event.metadata.actor, event.data.staffId)
        ? "changed their own password"
        : `set a new password for ${staffName(context, event.data.staffId)}`;
    case "TwoFactorEnabled":
      return "turned on two-factor sign-in with an authenticator app";
    case "TwoFactorReset":
      return isSelf(event.metadata.actor, event.data.staffId)
        ? "reset their own two-factor sign-in"
        : `reset the two-factor sign-in of ${staffName(context, event.data.staffId)}`;
    case "RecoveryCodeUsed": {
      const left = event.data.remaining;
      return `signed in with a recovery code (${String(left)} ${left === 1 ? "code" : "codes"} left)`;
    }
    case "DataExported":
      return exportSentence(event.data);
    case "GatewayRegistered":
      return `registered the payment gateway ${event.data.gatewayName}`;
    case "GatewaySelected": {
      const { data } = event;
      const name = (id: string) => context.gatewayName(id) ?? `gateway ${id}`;
      const replacing = data.previousGatewayId === undefined ? "" : `, replacing ${name(data.previousGatewayId)}`;
      return `made ${name(data.gatewayId)} the active gateway of the ${data.domain} domain${replacing}`;
    }
    case "ServiceLevelPolicySet": {
      const { version, allowedMinutes } = event.data;
      return `set the service levels, version ${String(version)}: Standard ${durationText(allowedMinutes.standard * 60_000)}, Priority ${durationText(allowedMinutes.priority * 60_000)}, future orders ${durationText(allowedMinutes.future * 60_000)} from their processing date`;
    }
    case "ProjectionRebuildRequested":
      return `asked for the ${event.data.projection} read model (version ${String(event.data.version)}) to be rebuilt`;
    case "ReactorRetryRequested":
      return `asked the ${event.data.reactor} reactor to try again now`;
    case "InvoiceNumberIssued": {
      const { data } = event;
      return `issued invoice ${formatInvoiceNumber(data.year, data.number)} for order ${data.orderId} (${data.amount} ${data.currency}, ${data.gatewayName})`;
    }
  }
};

/** The timeline's line: "Maria Santos (Manager) assigned the order to themselves; status New → Pending". */
export const describeEvent = (event: AnyEvent, context: AuditContext): string =>
  `${actorLabel(event.metadata.actor)} ${describeChange(event, context)}`;
