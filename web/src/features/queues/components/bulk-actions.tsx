import { Button } from "react-aria-components";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import type { SelectedOrder } from "@etd/contract";
import { BULK_COMMANDS, type BulkAction } from "../bulk-commands.ts";
import { confirmationWords } from "../select-all-result.ts";

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

/** The words of a pending action's confirmation: 000 §4's, and for a select-all the count (issue 16 B). */
export const confirmationOf = (pending: PendingAction): string | undefined =>
  confirmationWords(BULK_COMMANDS[pending.action].confirm, pending.asSelected === undefined ? undefined : pending.orderIds.length);

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
