import { QUEUE_KEYS, type Action, type BulkChangeAnswer, type QueueKey, type SelectedOrder } from "@etd/contract";
import { ORDERS, type BodyOf, type EndpointDeclaration } from "@etd/contract/endpoints";
import { callApi, type CallOf, type Envelope } from "../../lib/api-client.ts";

/** A bulk command of the queues (QUEUE-8..11), everything about it in one entry. */
interface BulkCommand {
  /** Its button. */
  readonly label: string;
  readonly className: string;
  /** The confirmation, in 000 §4's words; none for Refunded it. */
  readonly confirm?: string;
  /** Who is offered it: the endpoint's guard, or for Delete the soft delete's rule. */
  readonly permission: Action;
  /** The folders whose screens offer it (queue-screens.ts adds each screen's own limits). */
  readonly folders: readonly QueueKey[];
  /** What happened to each changed order, for a select-all result ("deleted"). */
  readonly done: string;
  /** The endpoint it calls: what it changes, for reading the lists again after it. */
  readonly endpoint: EndpointDeclaration;
  readonly run: (orderIds: readonly string[], viewerName: string, asSelected?: readonly SelectedOrder[]) => Promise<Envelope<BulkChangeAnswer | null>>;
}

/** An entry: the endpoint it calls and the body it sends; the call (with `asSelected`, issue 16 part B) follows from them. */
const bulk = <E extends EndpointDeclaration & { readonly body: string }>(
  entry: Omit<BulkCommand, "endpoint" | "run"> & {
    readonly endpoint: E;
    readonly body: (orderIds: readonly string[], viewerName: string) => Omit<BodyOf<E>, "asSelected">;
  },
): BulkCommand => {
  const { body, ...command } = entry;
  return {
    ...command,
    // Each order as the member saw it when they selected all, so the server leaves alone any that changed since.
    run: (orderIds, viewerName, asSelected) =>
      callApi(entry.endpoint, { body: { ...body(orderIds, viewerName), ...(asSelected === undefined ? {} : { asSelected }) } } as CallOf<E>) as Promise<
        Envelope<BulkChangeAnswer | null>
      >,
  };
};

/** Keeps the table's names as the type of an action, each entry a BulkCommand. */
const commands = <A extends string>(table: Readonly<Record<A, BulkCommand>>) => table;

/** The bulk commands, in the order the toolbar shows them. */
export const BULK_COMMANDS = commands({
  assign: bulk({
    label: "Assign to me",
    className: "button button-primary",
    confirm: "Are you sure want to assigned orders.",
    permission: "order.assign",
    // QUEUE-9: New and Priority.
    folders: ["newOrder", "priorityOrder"],
    done: "assigned to you",
    endpoint: ORDERS.assignOrders,
    // The server assigns to the signed-in member whatever `assignto` says; a lost race answers 409 naming who won and when.
    body: (orderId, viewerName) => ({ orderId, assignto: viewerName }),
  }),
  moveToOriginal: bulk({
    label: "Move to Original Folder",
    className: "button button-primary",
    confirm: "Are you sure want to move orders to new orders.",
    permission: "order.move-to-original",
    folders: ["myOrder"],
    done: "moved to their original folder",
    endpoint: ORDERS.moveOrdersToOriginalFolder,
    body: (orderId) => ({ orderId }),
  }),
  refunded: bulk({
    label: "Refunded it",
    className: "button button-primary",
    permission: "order.refunded",
    folders: ["refundOrder"],
    done: "marked refunded",
    endpoint: ORDERS.markOrdersRefunded,
    body: (orderId) => ({ orderId }),
  }),
  delete: bulk({
    label: "Delete Order",
    className: "button button-danger",
    confirm: "Are you sure you want to delete?",
    permission: "order.delete",
    // Every folder (000 §6 "default tables") but Deleted Orders, where it could only be refused; Future Orders has its own screen.
    folders: QUEUE_KEYS.filter((key) => key !== "deletedOrder" && key !== "futureOrder"),
    done: "deleted",
    endpoint: ORDERS.changeOrderStatus,
    // The soft delete (QUEUE-8): a move to Deleted, never the permanent one.
    body: (orderId) => ({ orderId, updatingStatus: "Deleted", permanentDeletedFlag: false }),
  }),
});

export type BulkAction = keyof typeof BULK_COMMANDS;

/** The bulk actions in toolbar order. */
export const BULK_ACTIONS = Object.keys(BULK_COMMANDS) as BulkAction[];
