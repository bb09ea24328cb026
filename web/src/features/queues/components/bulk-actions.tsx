import type { RowSelectionState } from "@tanstack/react-table";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { Button } from "react-aria-components";
import { QUEUE_KEYS, type Action, type BulkChangeAnswer, type QueueKey, type SelectedOrder } from "@etd/contract";
import { ORDERS, type BodyOf, type EndpointDeclaration } from "@etd/contract/endpoints";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { announce } from "../../../components/ui/live-region.tsx";
import { toast } from "../../../components/ui/toast.tsx";
import { callApi, refetchAfterCommand, type CallOf, type Envelope } from "../../../lib/api-client.ts";

/*
 * The queues' bulk actions (QUEUE-8..11), whole: each action's entry, the words of its
 * confirmation and result, the selection it acts on and how it runs, and the toolbar that offers
 * it. A new action is one entry below; everything else follows from it.
 */

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

/** What waits for Yes: an action and the orders it will act on. */
export interface PendingAction {
  readonly action: BulkAction;
  readonly orderIds: readonly string[];
  /** Select all (issue 16 B): each order as it was when selected; the server leaves alone any that changed since. */
  readonly asSelected?: readonly SelectedOrder[] | undefined;
  /** Claim-and-open (issue 16 C): open the order once the claim succeeded. */
  readonly openAfter?: boolean;
}

/** The orders the toolbar's buttons act on: the page's ticked rows, or everything select-all chose. */
export interface BulkSelection {
  readonly orderIds: readonly string[];
  readonly asSelected?: readonly SelectedOrder[] | undefined;
}

/** How many refusals a result quotes in full before it counts the rest by id. */
const QUOTED_REFUSALS = 3;

/**
 * The result of a command on a select-all selection (issue 16 B), as one sentence for the toast:
 * how many of the selected orders changed, then each order left alone and why (the server's
 * words, which name the order). An answer without that detail (a refusal of the whole request)
 * keeps the server's message.
 */
export const selectAllResult = (action: BulkAction, answer: Envelope<BulkChangeAnswer | null>, selected: number): Envelope<BulkChangeAnswer | null> => {
  const changed = answer.data?.changed;
  if (changed === undefined) return answer;
  const refused = answer.data?.refused ?? [];
  const done = `${changed.length} of ${selected} ${selected === 1 ? "order" : "orders"} ${BULK_COMMANDS[action].done}.`;
  if (refused.length === 0) return { ...answer, message: done };
  const quoted = refused.slice(0, QUOTED_REFUSALS).map((r) => r.message);
  const rest = refused.slice(QUOTED_REFUSALS).map((r) => r.orderId);
  const more = rest.length === 0 ? "" : ` And ${rest.length} more: ${rest.join(", ")}.`;
  return { ...answer, message: `${done} ${refused.length === 1 ? "1 order was" : `${refused.length} orders were`} left alone: ${quoted.join(" ")}${more}` };
};

/** A pending action's confirmation: 000 §4's words, and for a select-all the count (issue 16 B). */
export const confirmationWords = (words: string | undefined, selectAll: number | undefined): string | undefined =>
  selectAll === undefined ? words : `${words ?? ""} This applies to ${selectAll} ${selectAll === 1 ? "order" : "orders"}.`.trim();

/** The words of a pending action's confirmation. */
const confirmationOf = (pending: PendingAction): string | undefined =>
  confirmationWords(BULK_COMMANDS[pending.action].confirm, pending.asSelected === undefined ? undefined : pending.orderIds.length);

const NO_SELECTION: RowSelectionState = {};

interface Selection {
  readonly scope: string;
  readonly selected: RowSelectionState;
  /** Select all across pages (issue 16 B): every order the folder and search matched when chosen. */
  readonly all?: readonly SelectedOrder[];
}

/**
 * A list's selection and its bulk actions. The selection belongs to one view of the list
 * (`scope`: folder, page, size, search): another page or search starts with nothing selected, so
 * an action never touches rows the user cannot see, unless they chose "Select all", which then
 * holds exactly the orders matched at that moment (never more, even if the folder grows). After
 * any answer the selection is cleared: the refetched list shows which rows left. `onDone` hears
 * each command's answer (claim-and-open opens the order after a successful claim).
 *
 * A command's answer is shown as the server gave it: its message as a toast (success or error, as
 * the envelope says: a lost race names who won), also said in the screen's live region for
 * whoever works by keyboard (issue 16 C). Then the read models its endpoint declares it changes
 * (the lists and counts among them) are read again, so rows leave a list only when the server
 * says they did (no optimistic state; the reads wait for the command's position). The command
 * stays pending until the lists are fresh, so a second press cannot act on rows already gone.
 */
export const useBulkActions = (scope: string, viewerName: string, onDone?: (action: PendingAction, answer: Envelope) => void) => {
  const queryClient = useQueryClient();
  const [selection, setSelection] = useState<Selection>({ scope, selected: {} });
  const [pending, setPending] = useState<PendingAction | undefined>(undefined);
  const command = useMutation({
    mutationFn: async (action: PendingAction) => {
      const answer = await BULK_COMMANDS[action.action].run(action.orderIds, viewerName, action.asSelected);
      return action.asSelected === undefined ? answer : selectAllResult(action.action, answer, action.orderIds.length);
    },
    onSuccess: async (answer, action) => {
      toast.answer(answer);
      announce(answer.message);
      await refetchAfterCommand(queryClient, answer, BULK_COMMANDS[action.action].endpoint);
    },
    onError: (error) => {
      const message = error instanceof Error ? error.message : String(error);
      toast.error(message);
      announce(message);
    },
  });
  const current = selection.scope === scope ? selection : undefined;
  const selected = current?.selected ?? NO_SELECTION;
  const all = current?.all;
  const ask = useCallback((action: PendingAction) => setPending(action), []);

  const run = (action: PendingAction) =>
    command.mutate(action, {
      onSuccess: (answer) => onDone?.(action, answer),
      onSettled: () => {
        setPending(undefined);
        setSelection({ scope, selected: {} });
      },
    });

  return {
    selected,
    /** Ticking or unticking rows by hand ends a select-all. */
    setSelected: (next: RowSelectionState) => setSelection({ scope, selected: next }),
    /** The orders select-all chose, or undefined. */
    all,
    selectAll: (orders: readonly SelectedOrder[]) => setSelection({ scope, selected, all: orders }),
    clearAll: () => setSelection({ scope, selected: {} }),
    pending,
    busy: command.isPending,
    /** Asks for confirmation first when the action has one (000 §5). */
    request: (action: PendingAction) => (BULK_COMMANDS[action.action].confirm === undefined ? run(action) : setPending(action)),
    /** Opens the confirmation for an action that has one (a row's Delete). Stable between renders. */
    ask,
    confirm: () => pending && run(pending),
    cancel: () => {
      if (!command.isPending) setPending(undefined);
    },
  };
};

/** The selected ids among the rows shown, in the rows' order. */
export const selectedIdsOf = <T,>(rows: readonly T[], idOf: (row: T) => string, selected: RowSelectionState): string[] =>
  rows.map(idOf).filter((id) => selected[id] === true);

/** What the toolbar acts on: everything select-all chose, else the ticked rows shown. */
export const bulkSelectionOf = (all: readonly SelectedOrder[] | undefined, selectedIds: readonly string[]): BulkSelection =>
  all === undefined ? { orderIds: selectedIds } : { orderIds: all.map((order) => order.orderId), asSelected: all };

/**
 * The toolbar's buttons for the selection (QUEUE-8..11). A button needs a selection; while a
 * command runs every button is disabled (QUEUE-11: Refunded it is disabled while loading).
 */
export const BulkActionButtons = ({
  actions,
  selection,
  busy,
  onAction,
}: {
  actions: readonly BulkAction[];
  selection: BulkSelection;
  busy: boolean;
  onAction: (pending: PendingAction) => void;
}) => (
  <>
    {selection.orderIds.length > 0 && <span className="queue-selected-count">{selection.orderIds.length} selected</span>}
    {actions.map((action) => (
      <Button
        key={action}
        className={BULK_COMMANDS[action].className}
        isDisabled={busy || selection.orderIds.length === 0}
        onPress={() => onAction({ action, orderIds: selection.orderIds, asSelected: selection.asSelected })}
      >
        {BULK_COMMANDS[action].label}
      </Button>
    ))}
  </>
);

/** The confirmation of the pending action (000 §2: the message with Yes and No; Enter is Yes, Escape No). */
export const BulkActionConfirm = ({
  pending,
  busy,
  onConfirm,
  onCancel,
}: {
  pending: PendingAction | undefined;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) => (
  <ConfirmDialog
    isOpen={pending !== undefined}
    message={pending ? confirmationOf(pending) : undefined}
    busy={busy}
    confirmOnEnter
    onConfirm={onConfirm}
    onCancel={onCancel}
  />
);

/**
 * Select all across pages (issue 16 B): once every row of the page is ticked, the offer to take
 * every order of the folder (and search); once taken, how many and a way back.
 */
export const SelectAllBar = ({
  pageRows,
  allPageSelected,
  total,
  folder,
  search,
  allSelected,
  busy,
  onSelectAll,
  onClear,
}: {
  pageRows: number;
  allPageSelected: boolean;
  total: number;
  folder: string;
  search: string;
  /** How many select-all took; undefined while only the page is selected. */
  allSelected: number | undefined;
  busy: boolean;
  onSelectAll: () => void;
  onClear: () => void;
}) => {
  if (allSelected !== undefined)
    return (
      <div className="select-all-bar">
        <span>All {allSelected} orders are selected.</span>
        <Button className="button button-link" onPress={onClear}>
          Clear selection
        </Button>
      </div>
    );
  if (!allPageSelected || pageRows === 0 || total <= pageRows) return null;
  const matching = search.trim() === "" ? "" : ` matching “${search.trim()}”`;
  return (
    <div className="select-all-bar">
      <span>
        All {pageRows} orders on this page are selected.
      </span>
      <Button className="button button-link" onPress={onSelectAll} isDisabled={busy}>
        Select all {total} orders in {folder}
        {matching}
      </Button>
    </div>
  );
};
