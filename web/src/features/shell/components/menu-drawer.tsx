import type { ReactNode } from "react";
import { Button, Dialog, Modal, ModalOverlay } from "react-aria-components";

/**
 * The side menu below 992 px (SHELL-3): a modal drawer. Focus moves into it, Escape or the close
 * button closes it, and focus returns to the toggle. Loaded only on narrow screens (admin-layout.tsx).
 */
export const MenuDrawer = ({ isOpen, onOpenChange, children }: { isOpen: boolean; onOpenChange: (open: boolean) => void; children: ReactNode }) => (
  <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable className="drawer-overlay">
    <Modal className="drawer">
      <Dialog aria-label="Menu" className="drawer-dialog">
        <div className="drawer-head">
          <span className="drawer-title">Menu</span>
          <Button className="icon-button" aria-label="Close menu" onPress={() => onOpenChange(false)}>
            <span aria-hidden="true">×</span>
          </Button>
        </div>
        {children}
      </Dialog>
    </Modal>
  </ModalOverlay>
);
