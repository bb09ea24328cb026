import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";

/**
 * The confirmation of 000 §2: a message (default 'Are you sure you want to delete?') with Yes and
 * No. Yes is disabled while the action runs, so a double click cannot send it twice.
 */
export const ConfirmDialog = ({
  isOpen,
  message = "Are you sure you want to delete?",
  busy = false,
  onConfirm,
  onCancel,
}: {
  isOpen: boolean;
  message?: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) => (
  <ModalOverlay isOpen={isOpen} onOpenChange={(open) => !open && onCancel()} isDismissable className="modal-overlay">
    <Modal className="modal">
      <Dialog role="alertdialog" className="dialog">
        <Heading slot="title" className="dialog-title">
          Please confirm
        </Heading>
        <p>{message}</p>
        <div className="dialog-actions">
          <Button className="button button-primary" onPress={onConfirm} isDisabled={busy}>
            Yes
          </Button>
          <Button className="button" onPress={onCancel} isDisabled={busy}>
            No
          </Button>
        </div>
      </Dialog>
    </Modal>
  </ModalOverlay>
);
