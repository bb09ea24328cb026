import { describe, it } from "vitest";
import { type MarkOrderRefunded, orderDecider } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { MARIA } from "../support/metadata.ts";
import { addRemark, historyIn, ORDER_ID, remarkAdded } from "../support/order-fixtures.ts";
import { IsoDate } from "@etd/events";

const spec = specFor(orderDecider);

const TODAY = IsoDate.make("2025-03-15");

describe("ORDER-10 Add Comment", () => {
  it("records the remark with its flags, trimmed", () => {
    spec
      .given(historyIn("Pending"))
      .when(addRemark({ remark: "  Called twice, no answer. ", whatsapp: true, voided: true }))
      .then([remarkAdded({ remark: "Called twice, no answer.", whatsapp: true, voided: true })]);
  });

  it("keeps the remark's text only in the personal part, which a permanent delete makes unreadable (security review)", () => {
    spec
      .given(historyIn("Pending"))
      .when(addRemark({ remark: "Customer Liza phone +63 9171234567 said passport P1234567" }))
      .then([
        {
          type: "RemarkAdded",
          data: {
            orderId: ORDER_ID,
            remarkerName: MARIA.name,
            personal: { remark: "Customer Liza phone +63 9171234567 said passport P1234567" },
            whatsapp: false,
            telephone: false,
            statusRefund: false,
            voided: false,
            chargeBack: false,
            reportError: false,
          },
        },
      ]);
  });

  it.each(["Deleted", "Completed", "CompletedRefund", "New"] as const)(
    "accepts a remark on a %s order",
    (status) => {
      spec.given(historyIn(status)).when(addRemark()).then([remarkAdded()]);
    },
  );

  it("refuses an empty remark with the form's message", () => {
    spec.given(historyIn("Pending")).when(addRemark({ remark: "   " })).thenRefuses("invalid", "Please enter your remark");
  });

  it("with the Refund flag, asks for a refund from today", () => {
    spec
      .given(historyIn("Completed"))
      .when(addRemark({ statusRefund: true, today: TODAY }))
      .then([
        remarkAdded({ statusRefund: true }),
        { type: "OrderRefundRequested", data: { orderId: ORDER_ID, from: "Completed", refundDate: TODAY } },
      ]);
  });

  it.each(["Refund", "CompletedRefund"] as const)(
    "with the Refund flag on a %s order, only records the remark",
    (status) => {
      spec
        .given(historyIn(status))
        .when(addRemark({ statusRefund: true }))
        .then([remarkAdded({ statusRefund: true })]);
    },
  );

  it("with the Chargeback flag, marks the order ChargeBack", () => {
    spec
      .given(historyIn("CustomerCalled"))
      .when(addRemark({ chargeBack: true }))
      .then([
        remarkAdded({ chargeBack: true }),
        { type: "OrderChargebackMarked", data: { orderId: ORDER_ID, from: "CustomerCalled" } },
      ]);
  });

  it("with the Chargeback flag on a ChargeBack order, only records the remark", () => {
    spec
      .given(historyIn("ChargeBack"))
      .when(addRemark({ chargeBack: true }))
      .then([remarkAdded({ chargeBack: true })]);
  });

  it("refuses a remark that asks for a refund and a chargeback at once", () => {
    spec
      .given(historyIn("Completed"))
      .when(addRemark({ statusRefund: true, chargeBack: true }))
      .thenRefuses("invalid", "A remark cannot ask for a refund and a chargeback at once.");
  });
});

describe("QUEUE-11 Refunded it", () => {
  const refundedIt: MarkOrderRefunded = { type: "MarkOrderRefunded", orderId: ORDER_ID, actor: MARIA };

  it("moves a Refund order to Completed Refund", () => {
    spec.given(historyIn("Refund")).when(refundedIt).then([{ type: "OrderRefunded", data: { orderId: ORDER_ID } }]);
  });

  it.each([
    ["Completed", "Completed"],
    ["CompletedRefund", "Completed Refund"],
    ["Awaiting", "Awaiting Customer"],
  ] as const)("refuses a %s order: nothing to refund", (status, label) => {
    spec
      .given(historyIn(status))
      .when(refundedIt)
      .thenRefuses("conflict", `Order 100234 is not waiting for a refund (it is ${label}).`);
  });
});
