import { describe, it } from "vitest";
import { type MoveOrderToOriginalFolder, orderDecider } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { MARIA, ref } from "../support/metadata.ts";
import { historyIn, ORDER_ID, orderAssigned, orderPlaced, statusChanged } from "../support/order-fixtures.ts";

const spec = specFor(orderDecider);

const moveBack: MoveOrderToOriginalFolder = { type: "MoveOrderToOriginalFolder", orderId: ORDER_ID, actor: MARIA };

describe("QUEUE-10 Move to Original Folder", () => {
  it("clears the assignee and returns a standard order to New", () => {
    spec
      .given(historyIn("Pending"))
      .when(moveBack)
      .then([
        {
          type: "OrderMovedToOriginalFolder",
          data: { orderId: ORDER_ID, from: "Pending", to: "New", previousAssignee: ref(MARIA) },
        },
      ]);
  });

  it("returns a priority order to Priority", () => {
    spec
      .given([orderPlaced({ processingMode: "priority" }), orderAssigned(ref(MARIA), undefined, "Priority")])
      .when(moveBack)
      .then([
        {
          type: "OrderMovedToOriginalFolder",
          data: { orderId: ORDER_ID, from: "Pending", to: "Priority", previousAssignee: ref(MARIA) },
        },
      ]);
  });

  it("works from any status, and clears an assignment that survived status changes", () => {
    spec
      .given(historyIn("AwaitingGovt"))
      .when(moveBack)
      .then([
        {
          type: "OrderMovedToOriginalFolder",
          data: { orderId: ORDER_ID, from: "AwaitingGovt", to: "New", previousAssignee: ref(MARIA) },
        },
      ]);
  });

  it("undoes a soft delete of an unassigned order, naming no previous assignee", () => {
    spec
      .given([orderPlaced(), statusChanged("New", "Deleted")])
      .when(moveBack)
      .then([{ type: "OrderMovedToOriginalFolder", data: { orderId: ORDER_ID, from: "Deleted", to: "New" } }]);
  });

  it("refuses an unassigned New order: it is already there", () => {
    spec.given([orderPlaced()]).when(moveBack).thenRefuses("conflict", "Order 100234 is already in New Orders.");
  });

  it("refuses an unassigned Priority order: it is already there", () => {
    spec
      .given([orderPlaced({ processingMode: "priority" })])
      .when(moveBack)
      .thenRefuses("conflict", "Order 100234 is already in Priority Orders.");
  });
});
