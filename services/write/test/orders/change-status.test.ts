import { type OrderStatus } from "@etd/events";
import { describe, it } from "vitest";
import { ORDER_STATUS_LABELS } from "@etd/events";
import { type ChangeStatus, orderDecider } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { GRACE, MARIA, PAOLO } from "../support/metadata.ts";
import { historyIn, ORDER_ID, orderAssigned, orderPlaced, statusChanged } from "../support/order-fixtures.ts";

const spec = specFor(orderDecider);

const move = (to: OrderStatus, actor = MARIA, permanentDelete = false): ChangeStatus => ({
  type: "ChangeStatus",
  orderId: ORDER_ID,
  to,
  actor,
  permanentDelete,
});

describe("ORDER-11 move buttons on the detail page", () => {
  it.each([
    "Awaiting",
    "CompletedRefund",
    "Completed",
    "ContactCustomer",
    "AwaitingGovt",
    "CustomerCalled",
    "ChargeBack",
  ] as const)("moves a Pending order to %s (Paolo, Team, holds it)", (to) => {
    spec
      .given(historyIn("Pending", PAOLO))
      .when(move(to, PAOLO))
      .then([{ type: "OrderStatusChanged", data: { orderId: ORDER_ID, from: "Pending", to } }]);
  });

  it.each(Object.entries(ORDER_STATUS_LABELS).filter(([status]) => status !== "New" && status !== "Priority"))(
    "refuses to move an order that is already %s, by its label",
    (status, label) => {
      spec
        .given(historyIn(status as OrderStatus))
        .when(move(status as OrderStatus))
        .thenRefuses("conflict", `Order 100234 is already ${label}.`);
    },
  );

  it("refuses a move to the status an unassigned New order is already in", () => {
    spec.given([orderPlaced()]).when(move("New")).thenRefuses("conflict", "Order 100234 is already New.");
  });

  it.each(["New", "Priority"] as const)("sends a move back to %s through Move to Original Folder", (to) => {
    spec
      .given(historyIn("Completed"))
      .when(move(to))
      .thenRefuses("invalid", "Use Move to Original Folder to return an order to New or Priority.");
  });
});

describe("QUEUE-8 soft delete and undo", () => {
  it("deletes softly: the status becomes Deleted", () => {
    spec
      .given([orderPlaced()])
      .when(move("Deleted"))
      .then([{ type: "OrderStatusChanged", data: { orderId: ORDER_ID, from: "New", to: "Deleted" } }]);
  });

  it("undoes a soft delete by moving the order again", () => {
    spec
      .given([orderPlaced(), orderAssigned(), statusChanged("Pending", "Deleted")])
      .when(move("Awaiting"))
      .then([{ type: "OrderStatusChanged", data: { orderId: ORDER_ID, from: "Deleted", to: "Awaiting" } }]);
  });
});

describe("QUEUE-8 permanent delete (Admin only)", () => {
  it("soft-deletes first, then erases, when an Admin deletes permanently", () => {
    spec
      .given(historyIn("Pending"))
      .when(move("Deleted", GRACE, true))
      .then([
        { type: "OrderStatusChanged", data: { orderId: ORDER_ID, from: "Pending", to: "Deleted" } },
        { type: "OrderPermanentlyDeleted", data: { orderId: ORDER_ID, from: "Deleted" } },
      ]);
  });

  it("only erases an order that is already Deleted", () => {
    spec
      .given(historyIn("Deleted"))
      .when(move("Deleted", GRACE, true))
      .then([{ type: "OrderPermanentlyDeleted", data: { orderId: ORDER_ID, from: "Deleted" } }]);
  });

  it.each([MARIA, PAOLO])("refuses a permanent delete by a $role, even of their own order", (actor) => {
    spec
      .given(historyIn("Deleted", actor))
      .when(move("Deleted", actor, true))
      .thenRefuses("forbidden", "Only an Admin can delete an order permanently.");
  });

  it("refuses a permanent delete that would set another status", () => {
    spec
      .given(historyIn("Pending"))
      .when(move("Completed", GRACE, true))
      .thenRefuses("invalid", "A permanent delete sets the status to Deleted.");
  });
});

describe("QUEUE-8 deleting, and bringing back a deleted order, are an Admin's or a Manager's", () => {
  it("refuses a Team member's soft delete of the order they hold", () => {
    spec
      .given(historyIn("Pending", PAOLO))
      .when(move("Deleted", PAOLO))
      .thenRefuses("forbidden", `Only an Admin or a Manager can delete order ${ORDER_ID}.`);
  });

  it("refuses a Team member's move of a deleted order they hold, by a move button or Move to Original Folder", () => {
    const deleted = [...historyIn("Pending", PAOLO), statusChanged("Pending", "Deleted")];
    const brought = `Order ${ORDER_ID} was deleted; only an Admin or a Manager can bring it back.`;
    spec.given(deleted).when(move("Completed", PAOLO)).thenRefuses("forbidden", brought);
    spec.given(deleted).when({ type: "MoveOrderToOriginalFolder", orderId: ORDER_ID, actor: PAOLO }).thenRefuses("forbidden", brought);
  });

  it.each([MARIA, GRACE])("lets $role $name bring a deleted order back", (actor) => {
    spec
      .given([...historyIn("Pending", PAOLO), statusChanged("Pending", "Deleted")])
      .when(move("Completed", actor))
      .then([{ type: "OrderStatusChanged", data: { orderId: ORDER_ID, from: "Deleted", to: "Completed" } }]);
  });
});
