import { Button, Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";

/** The queues' shortcuts (issue 16 part C), as `?` lists them. */
export const QUEUE_SHORTCUTS: readonly { readonly keys: readonly string[]; readonly what: string }[] = [
  { keys: ["j", "↓"], what: "Next order" },
  { keys: ["k", "↑"], what: "Previous order" },
  { keys: ["Enter"], what: "Open the order" },
  { keys: ["x"], what: "Select or unselect the order" },
  { keys: ["a"], what: "Assign to me: the selected orders, or else this order, which then opens" },
  { keys: ["n"], what: "Take next: the most urgent unassigned order becomes yours, and opens" },
  { keys: ["/"], what: "Search" },
  { keys: ["Esc"], what: "Leave the search box, close a dialog" },
  { keys: ["?"], what: "This list" },
];

/**
 * The list of shortcuts, a react-aria modal dialog like the confirmation: focus moves into it and
 * returns where it was, Escape or Close ends it. Loaded when `?` is first pressed.
 */
export const ShortcutsDialog = ({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) => (
  <ModalOverlay isOpen={isOpen} onOpenChange={(open) => !open && onClose()} isDismissable className="modal-overlay">
    <Modal className="modal">
      <Dialog className="dialog shortcuts-dialog">
        <Heading slot="title" className="dialog-title">
          Keyboard shortcuts
        </Heading>
        <p className="shortcuts-note">They work while you are not typing in a field.</p>
        <dl className="shortcuts-list">
          {QUEUE_SHORTCUTS.map(({ keys, what }) => (
            <div key={what} className="shortcuts-item">
              <dt>
                {keys.map((key, index) => (
                  <span key={key}>
                    {index > 0 && " or "}
                    <kbd>{key}</kbd>
                  </span>
                ))}
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <div className="dialog-actions">
          <Button className="button button-primary" slot="close" autoFocus>
            Close
          </Button>
        </div>
      </Dialog>
    </Modal>
  </ModalOverlay>
);
