import { Link } from "@tanstack/react-router";
import { Button } from "react-aria-components";
import type { QueueRow } from "../utils/queue-queries.ts";

export interface RowActionsOptions {
  /** QUEUE-12: whether this viewer may open the order from this list. */
  readonly canOpen: (row: QueueRow) => boolean;
  /** Delete in the row (000 §6: Admin and Manager; Admin only on My Orders); none when absent. */
  readonly onDelete?: ((row: QueueRow) => void) | undefined;
}

/**
 * The Action column: View opens the order detail page; on New, Priority and the Chargeback list
 * an order assigned to someone else shows View greyed and inert (QUEUE-12), with the assignee in
 * its description so the reason is not only a colour.
 */
export const RowActions = ({ row, canOpen, onDelete }: RowActionsOptions & { row: QueueRow }) => (
  <span className="queue-row-actions">
    {canOpen(row) ? (
      <Link to="/admin/view-order/$orderId" params={{ orderId: row.id }} className="queue-view-link" aria-label={`View order ${row.id}`}>
        View
      </Link>
    ) : (
      // A link without a destination: announced as a disabled link, not focusable, not clickable.
      <a role="link" aria-disabled="true" className="link-disabled queue-view-link" title={`Assigned to ${row.assign_to}`}>
        View<span className="visually-hidden"> (assigned to {row.assign_to})</span>
      </a>
    )}
    {onDelete && (
      <Button className="button button-small button-danger queue-row-delete" onPress={() => onDelete(row)} aria-label={`Delete order ${row.id}`}>
        Delete
      </Button>
    )}
  </span>
);
