import type { Action, BulkChangeAnswer, SelectedOrder } from "@etd/contract";
import { ORDERS, type EndpointDeclaration } from "@etd/contract/endpoints";
import { callApi, type Envelope } from "../../lib/api-client.ts";

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
  /** The endpoint it calls: what it changes, for reading the lists again after it. */
  readonly endpoint: EndpointDeclaration;
  readonly run: (orderIds: readonly string[], viewerName: string, asSelected?: readonly SelectedOrder[]) => Promise<Envelope<BulkChangeAnswer | null>>;
}

/**
 * The optional `asSelected` of a bulk command (issue 16 part B): each order as the member saw it
 * when they selected all, so the server leaves alone any that changed since. Absent otherwise.
 */
const asSelectedField = (asSelected: readonly SelectedOrder[] | undefined): { asSelected?: readonly SelectedOrder[] } =>
  asSelected === undefined ? {} : { asSelected };

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
    // The server assigns to the signed-in member whatever `assignto` says; a lost race answers 409 naming who won and when.
    endpoint: ORDERS.assignOrders,
    run: (ids, viewerName, asSelected) => callApi(ORDERS.assignOrders, { body: { orderId: ids, assignto: viewerName, ...asSelectedField(asSelected) } }),
  },
  moveToOriginal: {
    label: "Move to Original Folder",
    className: "button button-primary",
    confirm: "Are you sure want to move orders to new orders.",
    permission: "order.move-to-original",
    done: "moved to their original folder",
    endpoint: ORDERS.moveOrdersToOriginalFolder,
    run: (ids, _viewerName, asSelected) => callApi(ORDERS.moveOrdersToOriginalFolder, { body: { orderId: ids, ...asSelectedField(asSelected) } }),
  },
  refunded: {
    label: "Refunded it",
    className: "button button-primary",
    permission: "order.refunded",
    done: "marked refunded",
    endpoint: ORDERS.markOrdersRefunded,
    run: (ids, _viewerName, asSelected) => callApi(ORDERS.markOrdersRefunded, { body: { orderId: ids, ...asSelectedField(asSelected) } }),
  },
  delete: {
    label: "Delete Order",
    className: "button button-danger",
    confirm: "Are you sure you want to delete?",
    permission: "order.delete",
    done: "deleted",
    // The soft delete (QUEUE-8): a move to Deleted, never the permanent one.
    endpoint: ORDERS.changeOrderStatus,
    run: (ids, _viewerName, asSelected) =>
      callApi(ORDERS.changeOrderStatus, { body: { orderId: ids, updatingStatus: "Deleted", permanentDeletedFlag: false, ...asSelectedField(asSelected) } }),
  },
});

export type BulkAction = keyof typeof BULK_COMMANDS;

/** The bulk actions in toolbar order. */
export const BULK_ACTIONS = Object.keys(BULK_COMMANDS) as BulkAction[];
