import { lazy, Suspense, useState } from "react";
// The props are the modal's; a type import is erased, so the modal's code still loads on first opening only.
import type { ConfirmDialogProps } from "./confirm-dialog-modal.tsx";

/** The dialog's code (react-aria's modal, dialog and focus handling), fetched when a confirmation first opens. */
const ConfirmDialogModal = lazy(() => import("./confirm-dialog-modal.tsx").then((module) => ({ default: module.ConfirmDialogModal })));

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
