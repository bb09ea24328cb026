import { Button } from "react-aria-components";
import type { Envelope } from "../../../lib/api-client.ts";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import { assignOrders } from "../api/assign-orders.ts";
import { deleteOrders } from "../api/delete-orders.ts";
import { markOrdersRefunded } from "../api/mark-orders-refunded.ts";
import { moveOrdersToOriginalFolder } from "../api/move-orders-to-original-folder.ts";
import type { BulkAction } from "../queue-screens.ts";

/** A bulk command: its button, its confirmation (000 §4's words; none for Refunded it) and its call. */
interface BulkCommand {
  readonly label: string;
  readonly confirm?: string;
  readonly className: string;
  readonly run: (orderIds: readonly string[], viewerName: string) => Promise<Envelope>;
}

export const BULK_COMMANDS: Readonly<Record<BulkAction, BulkCommand>> = {
  assign: {
    label: "Assign to me",
    confirm: "Are you sure want to assigned orders.",
    className: "button button-primary",
    run: (ids, viewerName) => assignOrders(ids, viewerName),
  },
  moveToOriginal: {
    label: "Move to Original Folder",
    confirm: "Are you sure want to move orders to new orders.",
    className: "button button-primary",
    run: (ids) => moveOrdersToOriginalFolder(ids),
  },
  refunded: { label: "Refunded it", className: "button button-primary", run: (ids) => markOrdersRefunded(ids) },
  delete: { label: "Delete Order", confirm: "Are you sure you want to delete?", className: "button button-danger", run: (ids) => deleteOrders(ids) },
};

/** What waits for Yes: an action and the orders it will act on. */
export interface PendingAction {
  readonly action: BulkAction;
  readonly orderIds: readonly string[];
}

/**
 * The toolbar's buttons for the selected rows (QUEUE-8..11). A button needs a selection; while a
 * command runs every button is disabled (QUEUE-11: Refunded it is disabled while loading).
 */
export const BulkActionButtons = ({
  actions,
  selectedIds,
  busy,
  onAction,
}: {
  actions: readonly BulkAction[];
  selectedIds: readonly string[];
  busy: boolean;
  onAction: (pending: PendingAction) => void;
}) => (
  <>
    {selectedIds.length > 0 && (
      <span className="queue-selected-count">
        {selectedIds.length} selected
      </span>
    )}
    {actions.map((action) => (
      <Button
        key={action}
        className={BULK_COMMANDS[action].className}
        isDisabled={busy || selectedIds.length === 0}
        onPress={() => onAction({ action, orderIds: selectedIds })}
      >
        {BULK_COMMANDS[action].label}
      </Button>
    ))}
  </>
);

/** The confirmation of the pending action (000 §2: the message with Yes and No). */
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
    message={pending ? BULK_COMMANDS[pending.action].confirm : undefined}
    busy={busy}
    onConfirm={onConfirm}
    onCancel={onCancel}
  />
);
