import { usEastern, type RemarkEntry, type YesNoFlag } from "@etd/contract";
import { remarkText } from "@etd/events";
import type { ProjectedEvent } from "../engine/projection.ts";
import { actorName, type TableFold } from "./order-details-fold-shared.ts";

/*
 * comment_history: one row per remark, dated in the back office's clock (US Eastern). Rows are
 * only ever added, except that a permanent delete blanks their text ("" — see remarkText).
 */

/** The row is the answer's line (ORDER-9) under its table's key, plus when, where in the stream and by whom (the staff id). */
export type CommentRow = Omit<RemarkEntry, "id" | "create_ts"> & {
  readonly remark_id: string;
  readonly stream_position: number;
  readonly created_at: string;
  readonly added_by: string;
};

const yn = (flag: boolean): YesNoFlag => (flag ? "Y" : "N");

export const foldComments = (): TableFold<CommentRow> => {
  const comments: CommentRow[] = [];

  const step = ({ event, eventId, streamPosition }: ProjectedEvent) => {
    if (event.type === "OrderPermanentlyDeleted") {
      // Remarks stored before version 3 arrive with their text in the clear even after the key is
      // gone; this batch's rows are blanked here, earlier batches' by the projection (erasedOrders).
      const { orderId } = event.data;
      for (const [i, comment] of comments.entries()) if (comment.order_id === orderId) comments[i] = { ...comment, remark: "" };
      return;
    }
    if (event.type !== "RemarkAdded") return;
    const { data } = event;
    const at = event.metadata.occurredAt;
    const eastern = usEastern(at);
    comments.push({
      remark_id: eventId,
      order_id: data.orderId,
      stream_position: Number(streamPosition),
      created_at: at,
      us_date: eastern.date,
      us_time: eastern.time,
      remark_name: data.remarkerName,
      remark: remarkText(data),
      added_by: actorName(event),
      whatsapp: yn(data.whatsapp),
      telephone: yn(data.telephone),
      status_refund: yn(data.statusRefund),
      voided: yn(data.voided),
      chargeback: yn(data.chargeBack),
      report_error: yn(data.reportError),
    });
  };

  return { step, changes: () => comments };
};
