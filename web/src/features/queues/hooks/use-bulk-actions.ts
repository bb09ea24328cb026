import type { RowSelectionState } from "@tanstack/react-table";
import { useCallback, useState } from "react";
import { BULK_COMMANDS, type PendingAction } from "../components/bulk-actions.tsx";
import { useQueueCommand } from "./use-queue-command.ts";

const NO_SELECTION: RowSelectionState = {};

/**
 * A list's selection and its bulk actions. The selection belongs to one view of the list
 * (`scope`: folder, page, size, search): another page or search starts with nothing selected, so
 * an action never touches rows the user cannot see. After any answer the selection is cleared:
 * the refetched list shows which rows left.
 */
export const useBulkActions = (scope: string, viewerName: string) => {
  const [selection, setSelection] = useState<{ scope: string; selected: RowSelectionState }>({ scope, selected: {} });
  const [pending, setPending] = useState<PendingAction | undefined>(undefined);
  const command = useQueueCommand();
  const selected = selection.scope === scope ? selection.selected : NO_SELECTION;
  const ask = useCallback((action: PendingAction) => setPending(action), []);

  const run = (action: PendingAction) =>
    command.mutate(() => BULK_COMMANDS[action.action].run(action.orderIds, viewerName), {
      onSettled: () => {
        setPending(undefined);
        setSelection({ scope, selected: {} });
      },
    });

  return {
    selected,
    setSelected: (next: RowSelectionState) => setSelection({ scope, selected: next }),
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
