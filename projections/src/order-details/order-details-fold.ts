import {
  isErased,
  isOrderEvent,
  type AnyEvent,
  type MailProvider,
  type MailPurpose,
  type MailTransport,
  type OrderEvent,
  type OrderStatus,
  type Role,
} from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";
import { describeEvent, type AuditContext, type KnownStaff } from "./audit-sentence.ts";
import { usEastern } from "./eastern-time.ts";
import { placedDocument, withoutPersonalData, withProcessing, type OrderDocument } from "./order-document.ts";

/*
 * The pure half of the projection: one batch of events folded in memory over the rows the batch
 * needs, answering the rows to write back. No SQL here, so the rules are testable without a
 * database and a batch touches each row once however many events it holds.
 *
 * Rows are written with the columns' own snake_case names.
 */

export interface DefencePackRow {
  readonly pack_type: 1 | 2;
  readonly file_name: string;
  readonly stored_path: string;
  readonly generated_at: string;
}

export interface OrderDetailsRow {
  readonly order_id: string;
  readonly document: OrderDocument;
  readonly process_status: OrderStatus;
  readonly assignee_id: string | null;
  readonly assignee_name: string | null;
  /** The current document (the last upload): file1, its stored path, who uploaded it and when. */
  readonly file_name: string | null;
  readonly stored_path: string | null;
  readonly uploaded_by_id: string | null;
  readonly uploaded_by_name: string | null;
  readonly uploaded_at: string | null;
  readonly refund_date: string | null;
  readonly transaction_id: string | null;
  readonly merchant_name: string | null;
  readonly defence_packs: readonly DefencePackRow[];
  /** True once a permanent delete erased the person from this row and the history tables. */
  readonly erased: boolean;
  readonly stream_position: number;
  readonly updated_at: string;
}

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

export interface DownloadRow {
  readonly download_id: string;
  readonly order_id: string;
  readonly stream_position: number;
  readonly create_ts: string;
  /** Personal: blanked on a permanent delete. */
  readonly ip: string | null;
  readonly location: string | null;
  readonly timezone: string | null;
  readonly browser: string | null;
  readonly os: string | null;
  readonly device: string | null;
  readonly device_type: string | null;
  readonly file: string;
}

export type YesNoFlag = "Y" | "N";

export interface CommentRow {
  readonly remark_id: string;
  readonly order_id: string;
  readonly stream_position: number;
  readonly created_at: string;
  readonly us_date: string;
  readonly us_time: string;
  readonly remark_name: string;
  readonly remark: string;
  readonly added_by: string;
  readonly whatsapp: YesNoFlag;
  readonly telephone: YesNoFlag;
  readonly status_refund: YesNoFlag;
  readonly voided: YesNoFlag;
  readonly chargeback: YesNoFlag;
  readonly report_error: YesNoFlag;
}

export interface AuditRow {
  readonly stream: string;
  readonly stream_position: number;
  readonly log_tx: string;
  readonly log_seq: string;
  readonly event_id: string;
  readonly occurred_at: string;
  readonly order_id: string | null;
  readonly actor_kind: "staff" | "system" | "customer";
  readonly actor_id: string | null;
  /** Staff or system name; "traveller" for the customer, who is never named. */
  readonly actor_name: string;
  readonly actor_role: Role | null;
  readonly event_type: string;
  readonly summary: string;
}

/** Staff and gateways as the timeline knows them, to name the target of an event by id. */
export interface NameRow {
  /** `staff:<id>` or `gateway:<id>`. */
  readonly ref: string;
  readonly name: string;
  readonly role: Role | null;
  readonly email: string | null;
}

/** What a batch needs read from the tables before it can be folded. */
export interface BatchNeeds {
  readonly orderIds: readonly string[];
  /** Orders with a mail outcome in the batch: their open mails may be the ones it reports. */
  readonly mailOrderIds: readonly string[];
  readonly causationIds: readonly string[];
  readonly nameRefs: readonly string[];
}

export interface LoadedRows {
  readonly orders: readonly OrderDetailsRow[];
  /** Open mails (requested, or failed and retrying) of `mailOrderIds`, and those named by `causationIds`. */
  readonly mails: readonly MailRow[];
  readonly names: readonly NameRow[];
}

export interface BatchChanges {
  readonly orders: readonly OrderDetailsRow[];
  readonly mails: readonly MailRow[];
  readonly downloads: readonly DownloadRow[];
  readonly comments: readonly CommentRow[];
  readonly audit: readonly AuditRow[];
  readonly names: readonly NameRow[];
  /** Orders permanently deleted in this batch: their older history rows lose their personal values. */
  readonly erasedOrders: readonly string[];
}

const staffRef = (id: string) => `staff:${id}`;
const gatewayRef = (id: string) => `gateway:${id}`;

const isMailOutcome = (event: AnyEvent) => event.type === "DocumentMailed" || event.type === "DocumentMailFailed";

export const batchNeeds = (events: readonly ProjectedEvent[]): BatchNeeds => {
  const orderIds = new Set<string>();
  const mailOrderIds = new Set<string>();
  const causationIds = new Set<string>();
  const nameRefs = new Set<string>();
  for (const { event } of events) {
    if (isOrderEvent(event)) {
      orderIds.add(event.data.orderId);
      if (isMailOutcome(event)) {
        mailOrderIds.add(event.data.orderId);
        if (event.metadata.causationId !== undefined) causationIds.add(event.metadata.causationId);
      }
    } else if (event.type === "StaffMemberUpdated" || event.type === "StaffMemberDeleted" || event.type === "PasswordChanged") {
      nameRefs.add(staffRef(event.data.staffId));
    } else if (event.type === "GatewaySelected") {
      nameRefs.add(gatewayRef(event.data.gatewayId));
      if (event.data.previousGatewayId !== undefined) nameRefs.add(gatewayRef(event.data.previousGatewayId));
    }
  }
  return { orderIds: [...orderIds], mailOrderIds: [...mailOrderIds], causationIds: [...causationIds], nameRefs: [...nameRefs] };
};

const yn = (flag: boolean): YesNoFlag => (flag ? "Y" : "N");

const isOpen = (mail: MailRow) => mail.status === "requested" || (mail.status === "failed" && mail.will_retry);

const MAIL_REQUESTS = {
  DocumentUploaded: "document",
  DocumentMailResent: "document",
  ReminderMailSent: "reminder",
  InvoiceSent: "invoice",
} as const satisfies Partial<Record<OrderEvent["type"], MailPurpose>>;

/** Folds one batch. `loaded` holds the rows `batchNeeds` asked for; nothing else is read. */
export const foldBatch = (events: readonly ProjectedEvent[], loaded: LoadedRows): BatchChanges => {
  const orders = new Map(loaded.orders.map((row) => [row.order_id, row]));
  const mails = new Map(loaded.mails.map((row) => [row.mail_id, row]));
  const names = new Map(loaded.names.map((row) => [row.ref, row]));
  const changedOrders = new Set<string>();
  const changedMails = new Set<string>();
  const changedNames = new Set<string>();
  const downloads: DownloadRow[] = [];
  const comments: CommentRow[] = [];
  const audit: AuditRow[] = [];
  const erasedOrders: string[] = [];

  const updateOrder = (orderId: string, change: (row: OrderDetailsRow) => Partial<OrderDetailsRow>, projected: ProjectedEvent) => {
    const row = orders.get(orderId);
    // A stream always starts with OrderPlaced; anything else before it has no row to change.
    if (row === undefined) return;
    orders.set(orderId, {
      ...row,
      ...change(row),
      stream_position: Number(projected.streamPosition),
      updated_at: projected.event.metadata.occurredAt,
    });
    changedOrders.add(orderId);
  };
  const setStatus = (orderId: string, status: OrderStatus, projected: ProjectedEvent, extra: Partial<OrderDetailsRow> = {}) =>
    updateOrder(orderId, () => ({ process_status: status, ...extra }), projected);
  const saveMail = (row: MailRow) => {
    mails.set(row.mail_id, row);
    changedMails.add(row.mail_id);
  };
  const saveName = (row: NameRow) => {
    names.set(row.ref, row);
    changedNames.add(row.ref);
  };

  const context = (event: AnyEvent): AuditContext => ({
    currentFileName: isOrderEvent(event) ? (orders.get(event.data.orderId)?.file_name ?? undefined) : undefined,
    staff: (id) => {
      const known = names.get(staffRef(id));
      return known && known.role !== null ? ({ name: known.name, role: known.role, email: known.email ?? "" } satisfies KnownStaff) : undefined;
    },
    gatewayName: (id) => names.get(gatewayRef(id))?.name,
  });

  for (const projected of events) {
    const { event, eventId, streamId } = projected;
    const at = event.metadata.occurredAt;
    const position = Number(projected.streamPosition);
    const { actor } = event.metadata;

    // The sentence reads the state before the event (the previous name, the current document).
    audit.push({
      stream: streamId,
      stream_position: position,
      log_tx: projected.position.tx.toString(),
      log_seq: projected.position.seq.toString(),
      event_id: eventId,
      occurred_at: at,
      order_id: isOrderEvent(event) ? event.data.orderId : null,
      actor_kind: actor.kind,
      actor_id: actor.kind === "staff" ? actor.id : null,
      actor_name: actor.kind === "customer" ? "traveller" : actor.name,
      actor_role: actor.kind === "staff" ? actor.role : null,
      event_type: event.type,
      summary: describeEvent(event, context(event)),
    });

    const requestedBy = actor.kind === "customer" ? "traveller" : actor.name;
    switch (event.type) {
      case "OrderPlaced": {
        const document = placedDocument(event.data);
        orders.set(event.data.orderId, {
          order_id: event.data.orderId,
          document,
          process_status: document.process_status,
          assignee_id: null,
          assignee_name: null,
          file_name: null,
          stored_path: null,
          uploaded_by_id: null,
          uploaded_by_name: null,
          uploaded_at: null,
          refund_date: null,
          transaction_id: null,
          merchant_name: null,
          defence_packs: [],
          erased: false,
          stream_position: position,
          updated_at: at,
        });
        changedOrders.add(event.data.orderId);
        break;
      }
      case "OrderClaimed":
        setStatus(event.data.orderId, "Pending", projected, { assignee_id: event.data.assignee.id, assignee_name: event.data.assignee.name });
        break;
      case "OrderStatusChanged":
        setStatus(event.data.orderId, event.data.to, projected);
        break;
      case "OrderMovedToOriginalFolder":
        setStatus(event.data.orderId, event.data.to, projected, { assignee_id: null, assignee_name: null });
        break;
      case "OrderRefundRequested":
        setStatus(event.data.orderId, "Refund", projected, { refund_date: event.data.refundDate });
        break;
      case "OrderRefunded":
        setStatus(event.data.orderId, "CompletedRefund", projected);
        break;
      case "OrderChargebackMarked":
        setStatus(event.data.orderId, "ChargeBack", projected);
        break;
      case "OrderPermanentlyDeleted": {
        const { orderId } = event.data;
        updateOrder(orderId, (row) => ({ process_status: "Deleted", document: withoutPersonalData(row.document), erased: true }), projected);
        for (const mail of mails.values()) if (mail.order_id === orderId && mail.recipient !== null) saveMail({ ...mail, recipient: null });
        for (const [i, download] of downloads.entries()) {
          if (download.order_id === orderId) downloads[i] = { ...download, ip: null, location: null };
        }
        erasedOrders.push(orderId);
        break;
      }
      case "RemarkAdded": {
        const { data } = event;
        const eastern = usEastern(at);
        comments.push({
          remark_id: eventId,
          order_id: data.orderId,
          stream_position: position,
          created_at: at,
          us_date: eastern.date,
          us_time: eastern.time,
          remark_name: data.remarkerName,
          remark: data.remark,
          added_by: requestedBy,
          whatsapp: yn(data.whatsapp),
          telephone: yn(data.telephone),
          status_refund: yn(data.statusRefund),
          voided: yn(data.voided),
          chargeback: yn(data.chargeBack),
          report_error: yn(data.reportError),
        });
        break;
      }
      case "DocumentUploaded":
      case "DocumentMailResent":
      case "ReminderMailSent":
      case "InvoiceSent": {
        const { data } = event;
        if (event.type === "DocumentUploaded") {
          updateOrder(
            data.orderId,
            () => ({
              file_name: event.data.fileName,
              stored_path: event.data.storedPath,
              uploaded_by_id: event.data.uploadedBy.id,
              uploaded_by_name: event.data.uploadedBy.name,
              uploaded_at: at,
            }),
            projected,
          );
        }
        const purpose = MAIL_REQUESTS[event.type];
        // A document or reminder mail links to the current document (just uploaded, for an upload).
        const order = orders.get(data.orderId);
        const linked = purpose === "invoice" || order === undefined ? null : order;
        saveMail({
          mail_id: eventId,
          order_id: data.orderId,
          stream_position: position,
          create_ts: at,
          purpose,
          remainder_mail: purpose === "reminder" ? 1 : 0,
          mail_service_provider: data.provider,
          file1: linked?.file_name ?? null,
          file_path: linked?.stored_path ?? null,
          requested_by: requestedBy,
          recipient: isErased(data.personal) ? null : data.personal.to,
          status: "requested",
          transport: null,
          message_id: null,
          reason: null,
          attempt: 0,
          will_retry: false,
          sent_at: null,
          updated_at: at,
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
        const base: MailRow = request ?? {
          mail_id: eventId,
          order_id: data.orderId,
          stream_position: position,
          create_ts: at,
          purpose: data.purpose,
          remainder_mail: data.purpose === "reminder" ? 1 : 0,
          mail_service_provider: data.provider,
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
        };
        if (event.type === "DocumentMailed") {
          const mailed = event.data;
          saveMail({
            ...base,
            status: "sent",
            transport: mailed.transport,
            message_id: mailed.messageId,
            file1: base.file1 ?? mailed.fileName ?? null,
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
      case "DocumentDownloaded": {
        const { data } = event;
        const personal = isErased(data.personal) ? undefined : data.personal;
        downloads.push({
          download_id: eventId,
          order_id: data.orderId,
          stream_position: position,
          create_ts: at,
          ip: personal?.ip ?? null,
          location: personal?.location ?? null,
          timezone: data.timezone ?? null,
          browser: data.browser ?? null,
          os: data.os ?? null,
          device: data.device ?? null,
          device_type: data.deviceType ?? null,
          file: data.fileName,
        });
        break;
      }
      case "TransactionDetailsRecorded":
        updateOrder(event.data.orderId, () => ({ transaction_id: event.data.transactionId, merchant_name: event.data.merchantName }), projected);
        break;
      case "DefencePackGenerated": {
        const { data } = event;
        updateOrder(
          data.orderId,
          (row) => ({
            defence_packs: [...row.defence_packs, { pack_type: data.packType, file_name: data.fileName, stored_path: data.storedPath, generated_at: at }],
          }),
          projected,
        );
        break;
      }
      case "StaffMemberAdded":
      case "StaffMemberUpdated":
        saveName({ ref: staffRef(event.data.staffId), name: event.data.name, role: event.data.role, email: event.data.email });
        break;
      case "GatewayRegistered":
        saveName({ ref: gatewayRef(event.data.gatewayId), name: event.data.gatewayName, role: null, email: null });
        break;
      case "StaffMemberDeleted":
      case "PasswordChanged":
      case "GatewaySelected":
        break;
    }
  }

  return {
    orders: [...changedOrders].map((id) => {
      const row = orders.get(id)!;
      return { ...row, document: withProcessing(row.document, row.process_status, row.assignee_name) };
    }),
    mails: [...changedMails].map((id) => mails.get(id)!),
    downloads,
    comments,
    audit,
    names: [...changedNames].map((ref) => names.get(ref)!),
    erasedOrders,
  };
};
