import type { Action, SelectedOrder } from "@etd/contract";
import type { Envelope } from "../../lib/api-client.ts";
import { assignOrders } from "./api/assign-orders.ts";
import type { OrdersChanged } from "./api/bulk-answer.ts";
import { deleteOrders } from "./api/delete-orders.ts";
import { markOrdersRefunded } from "./api/mark-orders-refunded.ts";
import { moveOrdersToOriginalFolder } from "./api/move-orders-to-original-folder.ts";

/** A bulk command of the queues (QUEUE-8..11), everything about it in one entry. */
interface BulkCommand {
  /** Its button. */
  readonly label: string;
  readonly className: string;
  /** The confirmation, in 000 §4's words; none for Refunded it. */
  readonly confirm?: string;
  /** Who is offered it: the endpoint's guard, or for Delete the soft delete's rule. */
  readonly permission: Action;
  /** What happened to each changed order, for a select-all result ("deleted"). */
  readonly done: string;
  readonly run: (orderIds: readonly string[], viewerName: string, asSelected?: readonly SelectedOrder[]) => Promise<Envelope<OrdersChanged>>;
}

/** Keeps the table's names as the type of an action, each entry a BulkCommand. */
const commands = <A extends string>(table: Readonly<Record<A, BulkCommand>>) => table;

/** The bulk commands, in the order the toolbar shows them. */
export const BULK_COMMANDS = commands({
  assign: {
    label: "Assign to me",
    className: "button button-primary",
    confirm: "Are you sure want to assigned orders.",
    permission: "order.assign",
    done: "assigned to you",
    run: (ids, viewerName, asSelected) => assignOrders(ids, viewerName, asSelected),
  },
  moveToOriginal: {
    label: "Move to Original Folder",
    className: "button button-primary",
    confirm: "Are you sure want to move orders to new orders.",
    permission: "order.move-to-original",
    done: "moved to their original folder",
    run: (ids, _viewerName, asSelected) => moveOrdersToOriginalFolder(ids, asSelected),
  },
  refunded: {
    label: "Refunded it",
    className: "button button-primary",
    permission: "order.refunded",
    done: "marked refunded",
    run: (ids, _viewerName, asSelected) => markOrdersRefunded(ids, asSelected),
  },
  delete: {
    label: "Delete Order",
    className: "button button-danger",
    confirm: "Are you sure you want to delete?",
    permission: "order.delete",
    done: "deleted",
    run: (ids, _viewerName, asSelected) => deleteOrders(ids, asSelected),
  },
});

export type BulkAction = keyof typeof BULK_COMMANDS;

/** The bulk actions in toolbar order. */
export const BULK_ACTIONS = Object.keys(BULK_COMMANDS) as BulkAction[];
