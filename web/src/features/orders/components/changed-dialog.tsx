import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";
import { ORDER_CHANGED_MESSAGE } from "@etd/contract";
import type { PendingRetry } from "../hooks/use-decisive-command.ts";
import { formatMoment } from "../format-moment.ts";

/**
 * "Changed since you opened it" (ADR 0014): a decisive action was refused because the order moved
 * on; nothing was changed. The dialog names what happened since (who, when, what, from the log),
 * and asks again: the page has meanwhile read the order afresh.
 */
export const ChangedDialog = ({ retry, busy, onAnyway, onCancel }: { readonly retry: PendingRetry | undefined; readonly busy: boolean; readonly onAnyway: () => void; readonly onCancel: () => void }) => (
  <ModalOverlay isOpen={retry !== undefined} onOpenChange={(open) => !open && onCancel()} isDismissable className="modal-overlay">
    <Modal className="modal modal-wide">
      <Dialog role="alertdialog" className="dialog order-changed-dialog">
        <Heading slot="title" className="dialog-title">
          Changed since you opened it
        </Heading>
        <p>{ORDER_CHANGED_MESSAGE}</p>
        {retry && (
          <>
            <ul className="order-changes">
              {retry.changed.changes.map((line) => (
                <li key={line.event_id}>
                  <strong>{line.actor_name}</strong> · <time dateTime={line.occurred_at}>{formatMoment(line.occurred_at)}</time> · {line.summary}
                </li>
              ))}
            </ul>
            <p>
              Do you still want to do this: <strong>{retry.label}</strong>?
            </p>
          </>
        )}
        <div className="dialog-actions">
          <Button className="button button-primary" onPress={onAnyway} isDisabled={busy}>
            Do it anyway
          </Button>
          <Button className="button" onPress={onCancel} isDisabled={busy}>
            Cancel
          </Button>
        </div>
      </Dialog>
    </Modal>
  </ModalOverlay>
);
