import type { RowSelectionState } from "@tanstack/react-table";
import { useCallback, useState } from "react";
import type { Envelope } from "../../../lib/api-client.ts";
import type { SelectedOrder } from "@etd/contract";
import { BULK_COMMANDS } from "../bulk-commands.ts";
import type { BulkSelection, PendingAction } from "../components/bulk-actions.tsx";
import { selectAllResult } from "../select-all-result.ts";
import { useQueueCommand } from "./use-queue-command.ts";

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
 */
export const useBulkActions = (scope: string, viewerName: string, onDone?: (action: PendingAction, answer: Envelope) => void) => {
  const [selection, setSelection] = useState<Selection>({ scope, selected: {} });
  const [pending, setPending] = useState<PendingAction | undefined>(undefined);
  const command = useQueueCommand();
  const current = selection.scope === scope ? selection : undefined;
  const selected = current?.selected ?? NO_SELECTION;
  const all = current?.all;
  const ask = useCallback((action: PendingAction) => setPending(action), []);

  const run = (action: PendingAction) =>
    command.mutate(
      {
        endpoint: BULK_COMMANDS[action.action].endpoint,
        run: async () => {
          const answer = await BULK_COMMANDS[action.action].run(action.orderIds, viewerName, action.asSelected);
          return action.asSelected === undefined ? answer : selectAllResult(action.action, answer, action.orderIds.length);
        },
      },
      {
        onSuccess: (answer) => onDone?.(action, answer),
        onSettled: () => {
          setPending(undefined);
          setSelection({ scope, selected: {} });
        },
      },
    );

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
