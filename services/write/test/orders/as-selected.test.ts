import { describe, it } from "vitest";
import { type AsSelected, orderDecider } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { GRACE, MARIA, PAOLO, ref } from "../support/metadata.ts";
import { ORDER_ID, orderAssigned, orderPlaced, refundRequested, statusChanged } from "../support/order-fixtures.ts";

/*
 * Issue 16, select all across pages: a bulk action on selected orders carries what the member saw
 * of each (status and assignee). The order decider refuses, as "changed", an order that moved on
 * since, and names what it is now; an unchanged one is decided as without the precondition.
 */

const spec = specFor(orderDecider);

const NEW_UNASSIGNED: AsSelected = { status: "New", assigneeId: null };

describe("issue 16 asSelected: the order as the member selected it (QUEUE-8..11)", () => {
  it("QUEUE-8: deletes a New order that is still New and unassigned", () => {
    spec
      .given([orderPlaced()])
      .when({ type: "ChangeStatus", orderId: ORDER_ID, to: "Deleted", actor: MARIA, permanentDelete: false, asSelected: NEW_UNASSIGNED })
      .then([{ type: "OrderStatusChanged", data: { orderId: ORDER_ID, from: "New", to: "Deleted" } }]);
  });

  it("QUEUE-8: refuses to delete an order a colleague claimed after the selection, naming status and assignee", () => {
    spec
      .given([orderPlaced(), orderAssigned(ref(PAOLO))])
      .when({ type: "ChangeStatus", orderId: ORDER_ID, to: "Deleted", actor: MARIA, permanentDelete: false, asSelected: NEW_UNASSIGNED })
      .thenRefuses("changed", `Order ${ORDER_ID} changed after it was selected (now Pending, assigned to Paolo Reyes); it was left as it is.`);
  });

  it("refuses when only the status moved, and names no assignee when there is none", () => {
    spec
      .given([orderPlaced({ processingMode: "priority" })])
      .when({ type: "ChangeStatus", orderId: ORDER_ID, to: "Deleted", actor: GRACE, permanentDelete: false, asSelected: NEW_UNASSIGNED })
      .thenRefuses("changed", `Order ${ORDER_ID} changed after it was selected (now Priority); it was left as it is.`);
  });

  it("refuses when only the assignee changed (same status, another holder)", () => {
    spec
      .given([orderPlaced(), orderAssigned(ref(MARIA)), statusChanged("Pending", "Awaiting")])
      .when({ type: "ChangeStatus", orderId: ORDER_ID, to: "Completed", actor: GRACE, permanentDelete: false, asSelected: { status: "Awaiting", assigneeId: PAOLO.id } })
      .thenRefuses("changed", `Order ${ORDER_ID} changed after it was selected (now Awaiting Customer, assigned to Maria Santos); it was left as it is.`);
  });

  it("QUEUE-9: assigns an order still as selected; a claimed one is 'changed', not the usual race answer", () => {
    spec
      .given([orderPlaced()])
      .when({ type: "AssignOrder", orderId: ORDER_ID, assignee: ref(PAOLO), now: "2025-03-14T10:05:00.000Z", asSelected: NEW_UNASSIGNED })
      .then([{ type: "OrderAssigned", data: { orderId: ORDER_ID, from: "New", assignee: ref(PAOLO) } }]);
    spec
      .given([orderPlaced(), orderAssigned(ref(MARIA))])
      .when({ type: "AssignOrder", orderId: ORDER_ID, assignee: ref(PAOLO), now: "2025-03-14T10:05:00.000Z", asSelected: NEW_UNASSIGNED })
      .thenRefuses("changed", `Order ${ORDER_ID} changed after it was selected (now Pending, assigned to Maria Santos); it was left as it is.`);
  });

  it("QUEUE-10: moves back an order still held as selected; one moved on is refused", () => {
    const selected: AsSelected = { status: "Pending", assigneeId: MARIA.id };
    spec
      .given([orderPlaced(), orderAssigned(ref(MARIA))])
      .when({ type: "MoveOrderToOriginalFolder", orderId: ORDER_ID, actor: MARIA, asSelected: selected })
      .then([{ type: "OrderMovedToOriginalFolder", data: { orderId: ORDER_ID, from: "Pending", to: "New", previousAssignee: ref(MARIA) } }]);
    spec
      .given([orderPlaced(), orderAssigned(ref(MARIA)), statusChanged("Pending", "Completed")])
      .when({ type: "MoveOrderToOriginalFolder", orderId: ORDER_ID, actor: MARIA, asSelected: selected })
      .thenRefuses("changed", `Order ${ORDER_ID} changed after it was selected (now Completed, assigned to Maria Santos); it was left as it is.`);
  });

  it("QUEUE-11: marks refunded an order still in Refund; one reassigned meanwhile is refused", () => {
    const history = [orderPlaced(), orderAssigned(ref(MARIA)), refundRequested("Pending")];
    spec
      .given(history)
      .when({ type: "MarkOrderRefunded", orderId: ORDER_ID, actor: PAOLO, asSelected: { status: "Refund", assigneeId: MARIA.id } })
      .then([{ type: "OrderRefunded", data: { orderId: ORDER_ID } }]);
    spec
      .given(history)
      .when({ type: "MarkOrderRefunded", orderId: ORDER_ID, actor: PAOLO, asSelected: { status: "Refund", assigneeId: null } })
      .thenRefuses("changed", `Order ${ORDER_ID} changed after it was selected (now Refund, assigned to Maria Santos); it was left as it is.`);
  });

  it("is checked before the read-only rule: a Team member learns the order changed, not that it is someone else's", () => {
    spec
      .given([orderPlaced(), orderAssigned(ref(MARIA))])
      .when({ type: "MoveOrderToOriginalFolder", orderId: ORDER_ID, actor: PAOLO, asSelected: NEW_UNASSIGNED })
      .thenRefuses("changed", `Order ${ORDER_ID} changed after it was selected (now Pending, assigned to Maria Santos); it was left as it is.`);
  });

  it("an unchanged order still meets every other rule (a Team member may not delete)", () => {
    spec
      .given([orderPlaced()])
      .when({ type: "ChangeStatus", orderId: ORDER_ID, to: "Deleted", actor: PAOLO, permanentDelete: false, asSelected: NEW_UNASSIGNED })
      .thenRefuses("forbidden", `Only an Admin or a Manager can delete order ${ORDER_ID}.`);
  });

  it("an order that does not exist is not found, whatever was selected", () => {
    spec
      .given([])
      .when({ type: "ChangeStatus", orderId: ORDER_ID, to: "Deleted", actor: MARIA, permanentDelete: false, asSelected: NEW_UNASSIGNED })
      .thenRefuses("not_found", `Order ${ORDER_ID} was not found.`);
  });
});
