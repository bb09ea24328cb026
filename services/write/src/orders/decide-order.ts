import { intakeStatusOf, isPayment, statusLabel } from "@etd/events";
import type { OrderEvent, OrderStatus, Role, StaffRef, WithoutMetadata } from "@etd/events";
import type { ActingStaff } from "../shared/acting-staff.ts";
import type { Decider, Decision } from "../shared/decider.ts";
import { type DecidedRefusal, refuse } from "../shared/refusal.ts";
import { isEmailAddress, trimmedText } from "../shared/validation.ts";
import type {
  AddRemark,
  ChangeStatus,
  AssignOrder,
  MoveOrderToOriginalFolder,
  OrderCommand,
  PlaceOrder,
  AsSelected,
  RecordDefencePack,
  UploadDocument,
  RecordDownload,
  RecordTransactionDetails,
  SendAutomaticReminder,
  SendInvoice,
  StaffOrderCommand,
} from "./commands.ts";
import {
  evolveOrder,
  initialOrderState,
  type OrderState,
  type PlacedOrder,
} from "./order-state.ts";

/*
 * The order rules (DESIGN §4). Every message names the order, because bulk actions on a list
 * run one command per order and the user must see which one was refused.
 */

export type NewOrderEvent = WithoutMetadata<OrderEvent>;
export type OrderDecision = Decision<NewOrderEvent>;

/** Transaction details and defence packs are dispute evidence (001 §4, ORDER-13). */
const DISPUTE_STATUSES: ReadonlySet<OrderStatus> = new Set(["Completed", "CustomerCalled", "ChargeBack"]);

const ALREADY_REFUNDING: ReadonlySet<OrderStatus> = new Set(["Refund", "CompletedRefund"]);

export const decideOrder = (command: OrderCommand, state: OrderState): OrderDecision => {
  if (command.type === "PlaceOrder") return placeOrder(command, state);
  if (!state.exists) return refuse("not_found", `Order ${command.orderId} was not found.`);
  // The history stays, but the person in it is gone: nothing may be added to it any more.
  if (state.permanentlyDeleted) {
    return refuse("conflict", `Order ${state.orderId} was permanently deleted.`);
  }
  // Before any other rule: the member decided on the order as the list showed it, so an order
  // that moved on since is reported as changed rather than judged on a state they never saw.
  if ("asSelected" in command && command.asSelected !== undefined) {
    const changed = changedSinceSelected(command.asSelected, state);
    if (changed !== undefined) return changed;
  }
  if (isReadOnlyGuarded(command)) {
    const readOnly = readOnlyFor(command.actor, state);
    if (readOnly !== undefined) return readOnly;
  }
  switch (command.type) {
    case "AssignOrder":
      return assignOrder(command, state);
    case "ChangeStatus":
      return changeStatus(command, state);
    case "MoveOrderToOriginalFolder":
      return moveToOriginalFolder(command, state);
    case "MarkOrderRefunded":
      return state.status === "Refund"
        ? [{ type: "OrderRefunded", data: { orderId: state.orderId } }]
        : refuse(
            "conflict",
            `Order ${state.orderId} is not waiting for a refund (it is ${statusLabel(state.status)}).`,
          );
    case "AddRemark":
      return addRemark(command, state);
    case "UploadDocument":
      return uploadDocument(command, state);
    case "ResendDocumentMail":
    case "SendReminderMail": {
      if (state.document === undefined) {
        return refuse("conflict", `Order ${state.orderId} has no document to mail yet.`);
      }
      if (!isEmailAddress(command.to)) return invalidEmail();
      const data = { orderId: state.orderId, provider: command.provider, personal: { to: command.to } };
      return command.type === "ResendDocumentMail"
        ? [{ type: "DocumentMailResent", data }]
        : [{ type: "ReminderMailSent", data }];
    }
    case "SendAutomaticReminder":
      return sendAutomaticReminder(command, state);
    case "SendInvoice":
      return sendInvoice(command, state);
    case "RecordDownload":
      return recordDownload(command, state);
    case "RecordTransactionDetails":
      return recordTransactionDetails(command, state);
    case "RecordDefencePack":
      return recordDefencePack(command, state);
  }
};

export const orderDecider: Decider<OrderCommand, OrderState, OrderEvent> = {
  initialState: initialOrderState,
  evolve: evolveOrder,
  decide: decideOrder,
};

/**
 * Which staff commands the read-only rule guards, keyed by every StaffOrderCommand type so the list
 * cannot drift from the type's. "Refunded it" is not guarded: the refund list gives it to every
 * role whoever holds the order (QUEUE-11), since whoever settles refunds is rarely the assignee.
 */
const GUARDED_BY_READ_ONLY: Record<StaffOrderCommand["type"], boolean> = {
  ChangeStatus: true,
  AddRemark: true,
  UploadDocument: true,
  ResendDocumentMail: true,
  SendReminderMail: true,
  RecordTransactionDetails: true,
  RecordDefencePack: true,
  MarkOrderRefunded: false,
  MoveOrderToOriginalFolder: true,
};

const isReadOnlyGuarded = (command: OrderCommand): command is StaffOrderCommand =>
  Object.hasOwn(GUARDED_BY_READ_ONLY, command.type) && GUARDED_BY_READ_ONLY[command.type as StaffOrderCommand["type"]];

/** The roles that may change an order someone else holds (QUEUE-12). */
const OVERSEERS: ReadonlySet<Role> = new Set(["Admin", "Manager"]);

/**
 * QUEUE-12 held on the server: an order assigned to someone else is read-only for Team,
 * Telecaller and Night Staff. The page greys its buttons out, but a stale page, a second tab or a
 * direct call must be refused here too. An unassigned order stays open to every role.
 */
export const readOnlyFor = (actor: ActingStaff, state: PlacedOrder): DecidedRefusal | undefined => {
  const holder = state.assignee?.staff;
  if (holder === undefined || holder.id === actor.id || OVERSEERS.has(actor.role)) return undefined;
  return refuse(
    "forbidden",
    `Order ${state.orderId} is assigned to ${holder.name}; only they, a Manager or an Admin can change it.`,
  );
};

/**
 * A selected order's precondition (issue 16): its status and assignee now must be the ones the
 * member selected it with. The message says what it is now, so the member can decide again.
 */
export const changedSinceSelected = (selected: AsSelected, state: PlacedOrder): DecidedRefusal | undefined => {
  const holder = state.assignee?.staff;
  if (state.status === selected.status && (holder?.id ?? null) === selected.assigneeId) return undefined;
  const now = `${statusLabel(state.status)}${holder === undefined ? "" : `, assigned to ${holder.name}`}`;
  return refuse("changed", `Order ${state.orderId} changed after it was selected (now ${now}); it was left as it is.`);
};

/** Only the fields the events hold: a caller may pass a richer object (a signed-in user). */
const staffRef = (staff: StaffRef): StaffRef => ({ id: staff.id, name: staff.name });

const invalidEmail = () => refuse("invalid", "Please enter a valid e-mail address.");

const placeOrder = (command: PlaceOrder, state: OrderState): OrderDecision => {
  if (state.exists) return refuse("conflict", `Order ${command.orderId} already exists.`);
  const { payment } = command;
  if (payment !== undefined && !isPayment(payment)) {
    return refuse("invalid", 'A payment is an amount with two decimals and a currency code, like "49.00" "USD".');
  }
  return [
    {
      type: "OrderPlaced",
      data: {
        orderId: command.orderId,
        processingMode: command.processingMode,
        landingDomain: command.landingDomain,
        processingDate: command.processingDate,
        createdAt: command.createdAt,
        application: command.application,
        personal: command.personal,
        ...(payment === undefined ? {} : { payment: { amount: payment.amount, currency: payment.currency } }),
      },
    },
  ];
};

/** "HH:MM:SS UTC", with "on DD/MM/YYYY" first when it was not today (UTC) any more. */
const describeTime = (at: string, now: string): string => {
  const time = `at ${at.slice(11, 19)} UTC`;
  if (at.slice(0, 10) === now.slice(0, 10)) return time;
  const [year, month, day] = at.slice(0, 10).split("-");
  return `on ${day}/${month}/${year} ${time}`;
};

const assignOrder = (command: AssignOrder, state: PlacedOrder): OrderDecision => {
  const { assignee } = state;
  if (assignee !== undefined) {
    // The losing side of a race must learn who won, and when (QUEUE-9).
    return assignee.staff.id === command.assignee.id
      ? refuse("conflict", `Order ${state.orderId} is already assigned to you.`)
      : refuse(
          "conflict",
          `Order ${state.orderId} was assigned to ${assignee.staff.name} ${describeTime(assignee.at, command.now)}.`,
        );
  }
  if (state.status !== "New" && state.status !== "Priority") {
    return refuse(
      "conflict",
      `Order ${state.orderId} is ${statusLabel(state.status)} and cannot be assigned.`,
    );
  }
  return [
    {
      type: "OrderAssigned",
      data: { orderId: state.orderId, from: state.status, assignee: staffRef(command.assignee), ...(command.reason === undefined ? {} : { reason: command.reason }) },
    },
  ];
};

const changeStatus = (command: ChangeStatus, state: PlacedOrder): OrderDecision => {
  const { orderId, status } = state;
  if (command.permanentDelete) {
    if (command.actor.role !== "Admin") {
      return refuse("forbidden", "Only an Admin can delete an order permanently.");
    }
    if (command.to !== "Deleted") {
      return refuse("invalid", "A permanent delete sets the status to Deleted.");
    }
    // Soft delete first, so projections see the order leave its folder the usual way.
    return status === "Deleted"
      ? [{ type: "OrderPermanentlyDeleted", data: { orderId, from: "Deleted" } }]
      : [
          { type: "OrderStatusChanged", data: { orderId, from: status, to: "Deleted" } },
          { type: "OrderPermanentlyDeleted", data: { orderId, from: "Deleted" } },
        ];
  }
  if (command.to === status) {
    return refuse("conflict", `Order ${orderId} is already ${statusLabel(status)}.`);
  }
  const deleteRefusal = deletingOrRestoring(command.actor, state, command.to);
  if (deleteRefusal !== undefined) return deleteRefusal;
  if (command.to === "New" || command.to === "Priority") {
    // Returning to intake also clears the assignee; that is its own command.
    return refuse("invalid", "Use Move to Original Folder to return an order to New or Priority.");
  }
  return [{ type: "OrderStatusChanged", data: { orderId, from: status, to: command.to } }];
};

/**
 * Deleting is Admin and Manager (QUEUE-8), so undoing a delete is too: a soft-deleted order comes
 * back only by their hand, or anyone could undo what a Manager decided.
 */
const deletingOrRestoring = (actor: ActingStaff, state: PlacedOrder, to: OrderStatus): DecidedRefusal | undefined => {
  if (OVERSEERS.has(actor.role)) return undefined;
  if (to === "Deleted") return refuse("forbidden", `Only an Admin or a Manager can delete order ${state.orderId}.`);
  if (state.status === "Deleted") return refuse("forbidden", `Order ${state.orderId} was deleted; only an Admin or a Manager can bring it back.`);
  return undefined;
};

const moveToOriginalFolder = (
  command: MoveOrderToOriginalFolder,
  state: PlacedOrder,
): OrderDecision => {
  const to = intakeStatusOf(state.processingMode);
  const restoreRefusal = deletingOrRestoring(command.actor, state, to);
  if (restoreRefusal !== undefined) return restoreRefusal;
  if (state.status === to && state.assignee === undefined) {
    return refuse("conflict", `Order ${state.orderId} is already in ${to} Orders.`);
  }
  return [
    {
      type: "OrderMovedToOriginalFolder",
      data: {
        orderId: state.orderId,
        from: state.status,
        to,
        ...(state.assignee === undefined ? {} : { previousAssignee: state.assignee.staff }),
      },
    },
  ];
};

const addRemark = (command: AddRemark, state: PlacedOrder): OrderDecision => {
  if (command.statusRefund && command.chargeBack) {
    return refuse("invalid", "A remark cannot ask for a refund and a chargeback at once.");
  }
  const remark = trimmedText(command.remark);
  if (remark === undefined) return refuse("invalid", "Please enter your remark");
  const remarkerName = trimmedText(command.remarkerName);
  if (remarkerName === undefined) return refuse("invalid", "A remark needs the name of its author.");

  const { orderId, status } = state;
  const events: NewOrderEvent[] = [
    {
      type: "RemarkAdded",
      data: {
        orderId,
        remarkerName,
        // Sealed with the order's key: a permanent delete makes the text unreadable.
        personal: { remark },
        whatsapp: command.whatsapp,
        telephone: command.telephone,
        statusRefund: command.statusRefund,
        voided: command.voided,
        chargeBack: command.chargeBack,
        reportError: command.reportError,
      },
    },
  ];
  // A repeated flag is still a valid remark; it just does not move the order again.
  if (command.statusRefund && !ALREADY_REFUNDING.has(status)) {
    events.push({ type: "OrderRefundRequested", data: { orderId, from: status, refundDate: command.today } });
  }
  if (command.chargeBack && status !== "ChargeBack") {
    events.push({ type: "OrderChargebackMarked", data: { orderId, from: status } });
  }
  return events;
};

const ACCEPTED_CONTENT_TYPE = /^(application\/pdf|image\/[a-z0-9.+-]+)$/;

const uploadDocument = (command: UploadDocument, state: PlacedOrder): OrderDecision => {
  const fileName = trimmedText(command.fileName);
  const storedPath = trimmedText(command.storedPath);
  if (fileName === undefined || storedPath === undefined) return refuse("invalid", "File is required");
  if (!ACCEPTED_CONTENT_TYPE.test(command.contentType)) {
    return refuse("invalid", "The document must be a PDF or an image.");
  }
  if (!Number.isInteger(command.sizeBytes) || command.sizeBytes <= 0) {
    return refuse("invalid", "The uploaded file is empty.");
  }
  if (!isEmailAddress(command.to)) return invalidEmail();
  return [
    {
      type: "DocumentUploaded",
      data: {
        orderId: state.orderId,
        contentType: command.contentType,
        sizeBytes: command.sizeBytes,
        uploadedBy: staffRef(command.actor),
        provider: command.provider,
        personal: { to: command.to, fileName, storedPath },
      },
    },
  ];
};

/**
 * Nothing to do is an empty decision, not a refusal: the scheduler asks again after a crash, and
 * "already reminded" or "downloaded meanwhile" are the normal ends of a reminder's wait.
 */
const sendAutomaticReminder = (command: SendAutomaticReminder, state: PlacedOrder): OrderDecision => {
  const document = state.document;
  if (document === undefined || document.downloads > 0 || document.reminded || document.mailedTo === undefined) return [];
  if (command.now.getTime() < Date.parse(document.uploadedAt) + command.reminderAfterMs) {
    return refuse("conflict", `The reminder for order ${state.orderId} is not due yet.`);
  }
  return [{ type: "ReminderMailSent", data: { orderId: state.orderId, provider: document.provider, personal: { to: document.mailedTo } } }];
};

const sendInvoice = (command: SendInvoice, state: PlacedOrder): OrderDecision => {
  // An invoice states what was paid; without a recorded payment there is nothing to state.
  const { payment } = state;
  if (payment === undefined) {
    return refuse("conflict", `Order ${state.orderId} has no recorded payment, so no invoice can be issued.`);
  }
  // Any member may send an order's invoice to its customer (ADMIN-6); sending it elsewhere is a
  // change of the order's correspondence, for those who may change the order (QUEUE-12).
  if (command.to !== undefined && command.to.trim().toLowerCase() !== state.email?.trim().toLowerCase()) {
    if (command.actor === undefined) return refuse("invalid", "An invoice to another address needs the member who sends it.");
    const readOnly = readOnlyFor(command.actor, state);
    if (readOnly !== undefined) return readOnly;
  }
  const to = command.to ?? state.email;
  if (to === undefined) return refuse("invalid", `Order ${state.orderId} has no e-mail address any more.`);
  if (!isEmailAddress(to)) return invalidEmail();
  // The order keeps its first invoice: sent again any day or year, it is the same invoice.
  const invoice = state.invoice ?? command.invoice;
  if (invoice === undefined) {
    return refuse("invalid", `Order ${state.orderId} has no invoice number yet; one must be issued before its invoice is sent.`);
  }
  if (state.invoice === undefined && (invoice.amount !== payment.amount || invoice.currency !== payment.currency)) {
    return refuse("invalid", `Order ${state.orderId}'s invoice must state its recorded payment, ${payment.amount} ${payment.currency}.`);
  }
  // Only the invoice's own fields: the event refuses any other key.
  const { number, issuedAt, gatewayName, amount, currency } = invoice;
  return [
    {
      type: "InvoiceSent",
      data: { orderId: state.orderId, provider: command.provider, personal: { to }, invoice: { number, issuedAt, gatewayName, amount, currency } },
    },
  ];
};

/** Downloads of one document recorded at most (PUBLIC-2, issue 13). */
export const MAX_RECORDED_DOWNLOADS = 100;
/** A download this soon after the last recorded one is not recorded again. */
export const REPEAT_DOWNLOAD_MS = 60_000;

const recordDownload = (command: RecordDownload, state: PlacedOrder): OrderDecision => {
  // Only the current document can be downloaded; an old or made-up name finds nothing, and so does
  // any name once the order is erased (its document's name is gone with the key).
  const document = state.document;
  const fileName = document?.fileName;
  if (document === undefined || fileName === undefined || fileName !== command.fileName) {
    return refuse("not_found", "The document was not found.");
  }
  // The history is evidence in a dispute and a page the traveller reads: a download repeated
  // within a minute adds nothing to it, and past a hundred nobody is better informed, while
  // anyone holding the grant could otherwise grow it without end. The file is served either way.
  if (document.downloads >= MAX_RECORDED_DOWNLOADS) return [];
  if (document.lastDownloadAt !== undefined && command.now.getTime() - Date.parse(document.lastDownloadAt) < REPEAT_DOWNLOAD_MS) return [];
  const { browser, os, device, deviceType, timezone, location } = command;
  return [
    {
      type: "DocumentDownloaded",
      data: {
        orderId: state.orderId,
        ...(timezone === undefined ? {} : { timezone }),
        personal: {
          ip: command.ip,
          ...(location === undefined ? {} : { location }),
          fileName,
          ...(browser === undefined ? {} : { browser }),
          ...(os === undefined ? {} : { os }),
          ...(device === undefined ? {} : { device }),
          ...(deviceType === undefined ? {} : { deviceType }),
        },
      },
    },
  ];
};

const recordTransactionDetails = (
  command: RecordTransactionDetails,
  state: PlacedOrder,
): OrderDecision => {
  if (!DISPUTE_STATUSES.has(state.status)) {
    return refuse(
      "conflict",
      "Transaction details can be entered only for Completed, Customer Called or Chargeback orders.",
    );
  }
  const transactionId = trimmedText(command.transactionId);
  if (transactionId === undefined) return refuse("invalid", "Please enter your Transaction Id");
  const merchantName = trimmedText(command.merchantName);
  if (merchantName === undefined) return refuse("invalid", "Please enter your Merchant Name");
  return [
    { type: "TransactionDetailsRecorded", data: { orderId: state.orderId, personal: { transactionId, merchantName } } },
  ];
};

const recordDefencePack = (command: RecordDefencePack, state: PlacedOrder): OrderDecision => {
  if (!DISPUTE_STATUSES.has(state.status)) {
    return refuse(
      "conflict",
      "Defence packs can be generated only for Completed, Customer Called or Chargeback orders.",
    );
  }
  const fileName = trimmedText(command.fileName);
  const storedPath = trimmedText(command.storedPath);
  if (fileName === undefined || storedPath === undefined) {
    return refuse("invalid", "A defence pack needs its stored file.");
  }
  return [
    {
      type: "DefencePackGenerated",
      data: { orderId: state.orderId, packType: command.packType, personal: { fileName, storedPath } },
    },
  ];
};
