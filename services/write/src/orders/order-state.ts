import {
  type EventMetadata,
  type IsoDate,
  type IsoDateTime,
  isErased,
  type LandingDomain,
  type MailProvider,
  type OrderEvent,
  type OrderId,
  type OrderInvoice,
  type OrderStatus,
  type Payment,
  type ProcessingMode,
  type StaffRef,
  statusAfter,
  statusLabel,
} from "@etd/events";
import { actorName } from "../shared/acting-staff.ts";

/** Who holds the order ("Assign to me") and since when: the assignment's time. */
export interface Assignment {
  readonly staff: StaffRef;
  readonly at: IsoDateTime;
}

/** The finished document staff uploaded last; its uploader is the order's "processed by". */
export interface CurrentDocument {
  /** Its name and stored path are personal (sealed): undefined once erased. */
  readonly fileName: string | undefined;
  readonly storedPath: string | undefined;
  readonly processedBy: StaffRef;
  readonly uploadedAt: IsoDateTime;
  /** Where and how the upload mailed it: an automatic reminder goes the same way. */
  readonly provider: MailProvider;
  /** Undefined once personal data is erased. */
  readonly mailedTo: string | undefined;
  /** How many downloads of this document were recorded (PUBLIC-2), and when the last one was. */
  readonly downloads: number;
  readonly lastDownloadAt: IsoDateTime | undefined;
  /** A reminder (staff's or the automatic one) went after this upload. */
  readonly reminded: boolean;
}

/**
 * The last status change, so a conflict can say who got there first: `${by} ${what}` reads as
 * a sentence, e.g. "Maria Santos moved it to Completed".
 */
export interface LastChange {
  /** The actor's name from the event's metadata ("order-intake" for the system). */
  readonly by: string;
  readonly at: IsoDateTime;
  readonly what: string;
}

export interface NoOrder {
  readonly exists: false;
}

export interface PlacedOrder {
  readonly exists: true;
  readonly orderId: OrderId;
  readonly status: OrderStatus;
  readonly processingMode: ProcessingMode;
  readonly landingDomain: LandingDomain;
  readonly processingDate: IsoDate;
  readonly createdAt: IsoDateTime;
  /** The customer's address; undefined once personal data is erased. */
  readonly email: string | undefined;
  /** Survives status changes; only Move to Original Folder clears it. */
  readonly assignee: Assignment | undefined;
  readonly document: CurrentDocument | undefined;
  /** Set by the last refund request; kept after "Refunded it". */
  readonly refundDate: IsoDate | undefined;
  readonly permanentlyDeleted: boolean;
  readonly lastChange: LastChange;
  /** What the customer paid; undefined for orders placed before payments were recorded. */
  readonly payment: Payment | undefined;
  /** The order's invoice, from its first InvoiceSent that carried one; every later send reuses it. */
  readonly invoice: OrderInvoice | undefined;
}

/** An order as its stream tells it; `exists` narrows to the placed order. */
export type OrderState = NoOrder | PlacedOrder;

export const initialOrderState: OrderState = { exists: false };

const changed = (metadata: EventMetadata, what: string): LastChange => ({
  by: actorName(metadata.actor),
  at: metadata.occurredAt,
  what,
});

const describeStatusChange = (from: OrderStatus, to: OrderStatus): string => {
  if (to === "Deleted") return "deleted it";
  if (from === "Deleted") return `restored it to ${statusLabel(to)}`;
  return `moved it to ${statusLabel(to)}`;
};

export const evolveOrder = (state: OrderState, event: OrderEvent): OrderState => {
  if (event.type === "OrderPlaced") {
    const { data, metadata } = event;
    return {
      exists: true,
      orderId: data.orderId,
      status: statusAfter(event)!,
      processingMode: data.processingMode,
      landingDomain: data.landingDomain,
      processingDate: data.processingDate,
      createdAt: data.createdAt,
      email: isErased(data.personal) ? undefined : data.personal.email,
      assignee: undefined,
      document: undefined,
      refundDate: undefined,
      permanentlyDeleted: false,
      lastChange: changed(metadata, "placed it"),
      payment: data.payment,
      invoice: undefined,
    };
  }
  // A stream always starts with OrderPlaced; anything before it is not an order to fold.
  if (!state.exists) return state;

  const { metadata } = event;
  switch (event.type) {
    case "OrderAssigned":
      return {
        ...state,
        status: statusAfter(event)!,
        assignee: { staff: event.data.assignee, at: metadata.occurredAt },
        lastChange: changed(metadata, `assigned it to ${event.data.assignee.name}`),
      };
    case "OrderStatusChanged":
      return {
        ...state,
        status: statusAfter(event)!,
        lastChange: changed(metadata, describeStatusChange(event.data.from, event.data.to)),
      };
    case "OrderMovedToOriginalFolder":
      return {
        ...state,
        status: statusAfter(event)!,
        assignee: undefined,
        lastChange: changed(metadata, `moved it back to ${event.data.to} Orders`),
      };
    case "OrderRefundRequested":
      return {
        ...state,
        status: statusAfter(event)!,
        refundDate: event.data.refundDate,
        lastChange: changed(metadata, "asked for a refund"),
      };
    case "OrderRefunded":
      return {
        ...state,
        status: statusAfter(event)!,
        lastChange: changed(metadata, "marked it refunded"),
      };
    case "OrderChargebackMarked":
      return {
        ...state,
        status: statusAfter(event)!,
        lastChange: changed(metadata, "marked it as a chargeback"),
      };
    case "OrderPermanentlyDeleted":
      return {
        ...state,
        status: statusAfter(event)!,
        email: undefined,
        document: state.document && { ...state.document, fileName: undefined, storedPath: undefined, mailedTo: undefined },
        permanentlyDeleted: true,
        lastChange: changed(metadata, "deleted it permanently"),
      };
    case "DocumentUploaded": {
      const personal = isErased(event.data.personal) ? undefined : event.data.personal;
      return {
        ...state,
        document: {
          fileName: personal?.fileName,
          storedPath: personal?.storedPath,
          processedBy: event.data.uploadedBy,
          uploadedAt: metadata.occurredAt,
          provider: event.data.provider,
          mailedTo: personal?.to,
          downloads: 0,
          lastDownloadAt: undefined,
          reminded: false,
        },
      };
    }
    case "ReminderMailSent":
      return state.document === undefined ? state : { ...state, document: { ...state.document, reminded: true } };
    case "DocumentDownloaded":
      return state.document === undefined ? state : { ...state, document: { ...state.document, downloads: state.document.downloads + 1, lastDownloadAt: metadata.occurredAt } };
    case "InvoiceSent":
      return state.invoice !== undefined || event.data.invoice === undefined ? state : { ...state, invoice: event.data.invoice };
    case "RemarkAdded":
    case "DocumentMailResent":
    case "TransactionDetailsRecorded":
    case "DefencePackGenerated":
      return state;
  }
};
