import { lazy, Suspense, useState } from "react";

/** The dialog's code (react-aria's modal, dialog and focus handling), fetched when a confirmation first opens. */
const ConfirmDialogModal = lazy(() => import("./confirm-dialog-modal.tsx").then((module) => ({ default: module.ConfirmDialogModal })));

export interface ConfirmDialogProps {
  readonly isOpen: boolean;
  readonly message?: string | undefined;
  readonly busy?: boolean;
  /** Yes takes the focus when the dialog opens, so Enter answers Yes (Escape always answers No). */
  readonly confirmOnEnter?: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/**
 * The confirmation of 000 §2: a message (default 'Are you sure you want to delete?') with Yes and
 * No. Yes is disabled while the action runs, so a double click cannot send it twice. A list shows
 * one on every page but opens it rarely, so its code is loaded on the first opening (issue 10
 * item 8) and kept for the next.
 */
export const ConfirmDialog = (props: ConfirmDialogProps) => {
  const opened = useOpenedOnce(props.isOpen);
  return opened ? (
    <Suspense fallback={null}>
      <ConfirmDialogModal {...props} />
    </Suspense>
  ) : null;
};

/** True from the first render with `isOpen` on: the dialog then stays mounted, so it can animate closed. */
const useOpenedOnce = (isOpen: boolean): boolean => {
  const [opened, setOpened] = useState(isOpen);
  if (isOpen && !opened) setOpened(true);
  return opened || isOpen;
};
