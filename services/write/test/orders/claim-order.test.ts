import { describe, expect, it } from "vitest";
import { type ClaimOrder, foldEvents, isRefusal, orderDecider } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { MARIA, PAOLO, ref } from "../support/metadata.ts";
import {
  movedToOriginalFolder,
  ORDER_ID,
  orderClaimed,
  orderPlaced,
  statusChanged,
} from "../support/order-fixtures.ts";

const spec = specFor(orderDecider);

const SAME_DAY = "2025-03-14T10:05:00.000Z";

const claimBy = (staff = PAOLO, now = SAME_DAY): ClaimOrder => ({
  type: "ClaimOrder",
  orderId: ORDER_ID,
  assignee: ref(staff),
  now,
});

describe("QUEUE-9 Assign to me", () => {
  it("takes an unassigned New order: it becomes Pending and mine", () => {
    spec
      .given([orderPlaced()])
      .when(claimBy(PAOLO))
      .then([{ type: "OrderClaimed", data: { orderId: ORDER_ID, from: "New", assignee: ref(PAOLO) } }]);
  });

  it("takes an unassigned Priority order", () => {
    spec
      .given([orderPlaced({ processingMode: "priority" })])
      .when(claimBy(PAOLO))
      .then([{ type: "OrderClaimed", data: { orderId: ORDER_ID, from: "Priority", assignee: ref(PAOLO) } }]);
  });

  it("names the assignee by id and name only, even when given the signed-in user with a role", () => {
    spec
      .given([orderPlaced()])
      .when({ ...claimBy(), assignee: PAOLO })
      .then([{ type: "OrderClaimed", data: { orderId: ORDER_ID, from: "New", assignee: ref(PAOLO) } }]);
  });

  it("tells the loser of a race who won and at what time (same UTC day)", () => {
    spec
      .given([orderPlaced(), orderClaimed(ref(MARIA), "2025-03-14T10:04:12.381Z")])
      .when(claimBy(PAOLO, "2025-03-14T23:59:59.000Z"))
      .thenRefuses("conflict", "Order 100234 was assigned to Maria Santos at 10:04:12 UTC.");
  });

  it("names the day as well when the claim was on an earlier UTC day", () => {
    spec
      .given([orderPlaced(), orderClaimed(ref(MARIA), "2025-03-14T10:04:12.000Z")])
      .when(claimBy(PAOLO, "2025-03-15T00:00:01.000Z"))
      .thenRefuses(
        "conflict",
        "Order 100234 was assigned to Maria Santos on 14/03/2025 at 10:04:12 UTC.",
      );
  });

  it("tells me when the order is already mine", () => {
    spec
      .given([orderPlaced(), orderClaimed(ref(MARIA))])
      .when(claimBy(MARIA))
      .thenRefuses("conflict", "Order 100234 is already assigned to you.");
  });

  it("still names the assignee after the assigned order moved on to another status", () => {
    spec
      .given([orderPlaced(), orderClaimed(ref(MARIA)), statusChanged("Pending", "Completed")])
      .when(claimBy(PAOLO))
      .thenRefuses("conflict", "Order 100234 was assigned to Maria Santos at 10:04:12 UTC.");
  });

  it.each([
    ["Awaiting", "Awaiting Customer"],
    ["AwaitingGovt", "Awaiting Govt"],
    ["ContactCustomer", "Contact Customer"],
    ["CustomerCalled", "Customer Called"],
    ["Completed", "Completed"],
    ["CompletedRefund", "Completed Refund"],
    ["ChargeBack", "Chargeback"],
    ["Deleted", "Deleted"],
  ] as const)("refuses an unassigned order in %s", (status, label) => {
    spec
      .given([orderPlaced(), statusChanged("New", status)])
      .when(claimBy(PAOLO))
      .thenRefuses("conflict", `Order 100234 is ${label} and cannot be assigned.`);
  });

  it("can be claimed again once it went back to its original folder", () => {
    spec
      .given([orderPlaced(), orderClaimed(ref(MARIA)), movedToOriginalFolder("Pending", "New", ref(MARIA))])
      .when(claimBy(PAOLO))
      .then([{ type: "OrderClaimed", data: { orderId: ORDER_ID, from: "New", assignee: ref(PAOLO) } }]);
  });

  it("lets exactly one of two racing claims win, whichever is appended first", () => {
    const history = [orderPlaced()];
    const state = foldEvents(orderDecider, history);
    // Both decided on the same state; the store's expected-version check lets only one append,
    // and the other is retried against the new state.
    const first = orderDecider.decide(claimBy(MARIA), state);
    const second = orderDecider.decide(claimBy(PAOLO), state);
    expect(isRefusal(first) || isRefusal(second)).toBe(false);

    spec
      .given([...history, orderClaimed(ref(MARIA), "2025-03-14T10:04:12.000Z")])
      .when(claimBy(PAOLO))
      .thenRefuses("conflict", "Order 100234 was assigned to Maria Santos at 10:04:12 UTC.");
  });
});
