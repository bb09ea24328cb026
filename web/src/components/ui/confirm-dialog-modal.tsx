import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";

export interface ConfirmDialogProps {
  readonly isOpen: boolean;
  readonly message?: string | undefined;
  readonly busy?: boolean;
  /** Yes takes the focus when the dialog opens, so Enter answers Yes (Escape always answers No). */
  readonly confirmOnEnter?: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/** The open confirmation (see confirm-dialog.tsx, which loads this module when one first opens). */
export const ConfirmDialogModal = ({
  isOpen,
  message = "Are you sure you want to delete?",
  busy = false,
  confirmOnEnter = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) => (
  <ModalOverlay isOpen={isOpen} onOpenChange={(open) => !open && onCancel()} isDismissable className="modal-overlay">
    <Modal className="modal">
      <Dialog role="alertdialog" className="dialog">
        <Heading slot="title" className="dialog-title">
          Please confirm
        </Heading>
        <p>{message}</p>
        <div className="dialog-actions">
          <Button className="button button-primary" onPress={onConfirm} isDisabled={busy} autoFocus={confirmOnEnter}>
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
