import { isErased, isOrderEvent, statusAfter, type OrderStatus } from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";
import type { TableFold } from "./order-details-fold-shared.ts";
import { placedDocument, withoutPersonalData, withProcessing, type OrderDocument } from "./order-document.ts";

/* order_details: one row per order, the document the view page reads and its processing state. */

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

export interface OrdersFold extends TableFold<OrderDetailsRow> {
  /** The order's row as of the events stepped so far (the mails and the audit read it). */
  readonly current: (orderId: string) => OrderDetailsRow | undefined;
}

export const foldOrders = (loaded: readonly OrderDetailsRow[]): OrdersFold => {
  const orders = new Map(loaded.map((row) => [row.order_id, row]));
  const changed = new Set<string>();

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
    changed.add(orderId);
  };
  const setStatus = (orderId: string, status: OrderStatus, projected: ProjectedEvent, extra: Partial<OrderDetailsRow> = {}) =>
    updateOrder(orderId, () => ({ process_status: status, ...extra }), projected);

  const step = (projected: ProjectedEvent) => {
    const { event } = projected;
    const at = event.metadata.occurredAt;
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
          stream_position: Number(projected.streamPosition),
          updated_at: at,
        });
        changed.add(event.data.orderId);
        break;
      }
      case "OrderAssigned":
        setStatus(event.data.orderId, statusAfter(event)!, projected, { assignee_id: event.data.assignee.id, assignee_name: event.data.assignee.name });
        break;
      case "OrderStatusChanged":
        setStatus(event.data.orderId, statusAfter(event)!, projected);
        break;
      case "OrderMovedToOriginalFolder":
        setStatus(event.data.orderId, statusAfter(event)!, projected, { assignee_id: null, assignee_name: null });
        break;
      case "OrderRefundRequested":
        setStatus(event.data.orderId, statusAfter(event)!, projected, { refund_date: event.data.refundDate });
        break;
      case "OrderRefunded":
        setStatus(event.data.orderId, statusAfter(event)!, projected);
        break;
      case "OrderChargebackMarked":
        setStatus(event.data.orderId, statusAfter(event)!, projected);
        break;
      case "OrderPermanentlyDeleted":
        // File names are personal too ("passport_Liza.pdf"), and the stored path ends with one;
        // the transaction's details are what staff typed about the payment. Events stored before
        // these were sealed still carry them, so they are blanked here, not only left unread.
        updateOrder(
          event.data.orderId,
          (row) => ({
            process_status: statusAfter(event)!,
            document: withoutPersonalData(row.document),
            erased: true,
            file_name: null,
            stored_path: null,
            transaction_id: null,
            merchant_name: null,
            defence_packs: row.defence_packs.map((pack) => ({ ...pack, file_name: "", stored_path: "" })),
          }),
          projected,
        );
        break;
      case "DocumentUploaded": {
        const personal = isErased(event.data.personal) ? undefined : event.data.personal;
        updateOrder(
          event.data.orderId,
          () => ({
            file_name: personal?.fileName ?? null,
            stored_path: personal?.storedPath ?? null,
            uploaded_by_id: event.data.uploadedBy.id,
            uploaded_by_name: event.data.uploadedBy.name,
            uploaded_at: at,
          }),
          projected,
        );
        break;
      }
      case "TransactionDetailsRecorded": {
        const personal = isErased(event.data.personal) ? undefined : event.data.personal;
        updateOrder(event.data.orderId, () => ({ transaction_id: personal?.transactionId ?? null, merchant_name: personal?.merchantName ?? null }), projected);
        break;
      }
      case "DefencePackGenerated": {
        const { data } = event;
        const personal = isErased(data.personal) ? undefined : data.personal;
        updateOrder(
          data.orderId,
          (row) => ({
            defence_packs: [...row.defence_packs, { pack_type: data.packType, file_name: personal?.fileName ?? "", stored_path: personal?.storedPath ?? "", generated_at: at }],
          }),
          projected,
        );
        break;
      }
      default:
        // Remarks, mails, downloads and the rest leave the document as it is, but they are the
        // order's events all the same: stream_position is the version the page sends back
        // (expectedVersion), so it must follow every event of the stream, not only the changes
        // this row shows.
        if (isOrderEvent(event)) updateOrder(event.data.orderId, () => ({}), projected);
    }
  };

  return {
    step,
    current: (orderId) => orders.get(orderId),
    // The document carries the processing fields as the row ends the batch.
    changes: () =>
      [...changed].map((id) => {
        const row = orders.get(id)!;
        return { ...row, document: withProcessing(row.document, row.process_status, row.assignee_name) };
      }),
  };
};
