import type { OrderDetails, RemarkEntry } from "@etd/contract";
import { useState } from "react";
import { HistoryTable } from "./history-table.tsx";
import { RecordRows } from "./record-section.tsx";

/** The flags a remark carries, in the spec's order and words (ORDER-9); 'N' when not set. */
const flagRows = (remark: RemarkEntry) =>
  (
    [
      ["Whatsapp", remark.whatsapp],
      ["Telephone", remark.telephone],
      ["Refund", remark.status_refund],
      ["Voided", remark.voided],
      ["Chargeback", remark.chargeback],
      ["ReportError", remark.report_error],
    ] as const
  ).map(([label, flag]) => ({ label, value: flag === "Y" ? "Y" : "N" }));

/**
 * Comment History's table (ORDER-9): #, Order ID, date and time (already US Eastern from the
 * API), team, and per comment a Show/Hide button revealing its text and flags in a row below.
 * The page puts it in its section, under the remarks panel.
 */
export const CommentHistory = ({ order }: { readonly order: OrderDetails }) => {
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) =>
    setShown((before) => {
      const next = new Set(before);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <HistoryTable
      label="Comment History"
      className="comment-history"
      headers={["#", "Order ID", "Date and Time", "Team", "Comment"]}
      isEmpty={order.remark.length === 0}
    >
      {order.remark.flatMap((remark, index) => {
        const open = shown.has(remark.id);
        const detailId = `comment-${remark.id}`;
        return [
          <tr key={remark.id} data-remark-id={remark.id}>
            <td>{index + 1}</td>
            <td>{remark.order_id}</td>
            <td>
              {remark.us_date} {remark.us_time}
            </td>
            <td className="record-wrap">{remark.remark_name}</td>
            <td>
              <button
                type="button"
                className="button record-toggle"
                aria-expanded={open}
                aria-controls={detailId}
                aria-label={`${open ? "Hide" : "Show"} comment ${index + 1}`}
                onClick={() => toggle(remark.id)}
              >
                {open ? "Hide" : "Show"}
              </button>
            </td>
          </tr>,
          <tr key={`${remark.id}-detail`} id={detailId} className="comment-detail" hidden={!open}>
            <td colSpan={5}>
              <p className="comment-text">{remark.remark}</p>
              <RecordRows rows={flagRows(remark)} />
            </td>
          </tr>,
        ];
      })}
    </HistoryTable>
  );
};
