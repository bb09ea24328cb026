import { isAllowed, type OrderDetails, type OrderStatus, type Role } from "@etd/contract";
import { ORDERS } from "@etd/contract/endpoints";
import { useState } from "react";
import { Button } from "react-aria-components";
import { ConfirmDialog } from "../../../components/ui/confirm-dialog.tsx";
import type { OrderCommands } from "../hooks/use-decisive-command.ts";

/** ORDER-11's buttons, in the spec's order: the label, the status it moves to and the alias sent as `updatingStatus`. */
export const MOVES: readonly { readonly label: string; readonly to: OrderStatus; readonly updatingStatus: string }[] = [
  { label: "Awaiting Response", to: "Awaiting", updatingStatus: "awaiting" },
  { label: "Completed Refunds", to: "CompletedRefund", updatingStatus: "completedrefund" },
  { label: "Completed Orders", to: "Completed", updatingStatus: "completed" },
  { label: "Delete", to: "Deleted", updatingStatus: "deleted" },
  { label: "Contact Customer", to: "ContactCustomer", updatingStatus: "contactcustomer" },
  { label: "Awaiting Govt", to: "AwaitingGovt", updatingStatus: "awaitinggovt" },
  { label: "Customer Called", to: "CustomerCalled", updatingStatus: "customercalled" },
  { label: "ChargeBack", to: "ChargeBack", updatingStatus: "chargeback" },
];

/**
 * ORDER-11: move the order; the current status's button is hidden, Delete only for the roles that
 * may delete (000 §6) and only after the confirmation; a deleted order's buttons only for them. Each move is decisive: sent with the
 * page's version.
 */
export const MoveButtons = ({ order, role, commands }: { readonly order: OrderDetails; readonly role: Role; readonly commands: OrderCommands }) => {
  const [confirming, setConfirming] = useState(false);
  const move = (label: string, updatingStatus: string) =>
    commands.decisive(label, ORDERS.changeOrderStatus, (version) => ({
      body: { orderId: [order.order_id], updatingStatus, permanentDeletedFlag: false, expectedVersion: version },
    }));
  // Deleting, and bringing a deleted order back, are for the roles that may delete (the decider's rule too).
  const mayDelete = isAllowed(role, "order.delete");
  if (order.process_status === "Deleted" && !mayDelete) return null;
  const shown = MOVES.filter((entry) => entry.to !== order.process_status && (entry.to !== "Deleted" || mayDelete));
  return (
    <div className="order-moves" role="group" aria-labelledby="move-title">
      <h3 id="move-title">Move Order</h3>
      <div className="toolbar order-move-buttons">
        {shown.map((entry) => (
          <Button
            key={entry.to}
            className={entry.to === "Deleted" ? "button button-danger" : "button"}
            isDisabled={commands.busy !== undefined}
            onPress={() => (entry.to === "Deleted" ? setConfirming(true) : void move(entry.label, entry.updatingStatus))}
          >
            {entry.label}
          </Button>
        ))}
      </div>
      <ConfirmDialog
        isOpen={confirming}
        busy={commands.busy !== undefined}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void move("Delete", "deleted");
        }}
      />
    </div>
  );
};
