import { describe, it } from "vitest";
import { orderDecider, type RecordDefencePack, type RecordTransactionDetails } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { MARIA } from "../support/metadata.ts";
import { historyIn, ORDER_ID } from "../support/order-fixtures.ts";

const spec = specFor(orderDecider);

const transaction = (overrides: Partial<RecordTransactionDetails> = {}): RecordTransactionDetails => ({
  type: "RecordTransactionDetails",
  orderId: ORDER_ID,
  transactionId: "ch_3OqZ8d2eZvKYlo2C1",
  merchantName: "ETD Services",
  actor: MARIA,
  ...overrides,
});

const defencePack: RecordDefencePack = {
  type: "RecordDefencePack",
  orderId: ORDER_ID,
  packType: 2,
  fileName: "defence-pack-2-100234.pdf",
  storedPath: "defence/100234/defence-pack-2-100234.pdf",
  actor: MARIA,
};

const DISPUTE_STATUSES = ["Completed", "CustomerCalled", "ChargeBack"] as const;
const OTHER_STATUSES = ["New", "Pending", "Awaiting", "Refund", "CompletedRefund", "Deleted"] as const;

describe("ORDER-13 transaction details", () => {
  it.each(DISPUTE_STATUSES)("are recorded for a %s order", (status) => {
    spec
      .given(historyIn(status))
      .when(transaction())
      .then([
        {
          type: "TransactionDetailsRecorded",
          // Issue 25: both are sealed, as staff type them freely.
          data: { orderId: ORDER_ID, personal: { transactionId: "ch_3OqZ8d2eZvKYlo2C1", merchantName: "ETD Services" } },
        },
      ]);
  });

  it.each(OTHER_STATUSES)("are refused for a %s order", (status) => {
    spec
      .given(historyIn(status))
      .when(transaction())
      .thenRefuses(
        "conflict",
        "Transaction details can be entered only for Completed, Customer Called or Chargeback orders.",
      );
  });

  it("need a transaction id and a merchant name (the form's messages)", () => {
    spec
      .given(historyIn("Completed"))
      .when(transaction({ transactionId: "" }))
      .thenRefuses("invalid", "Please enter your Transaction Id");
    spec
      .given(historyIn("Completed"))
      .when(transaction({ merchantName: " " }))
      .thenRefuses("invalid", "Please enter your Merchant Name");
  });
});

describe("ORDER-13 defence packs", () => {
  it.each(DISPUTE_STATUSES)("are recorded for a %s order", (status) => {
    spec
      .given(historyIn(status))
      .when(defencePack)
      .then([
        {
          type: "DefencePackGenerated",
          data: {
            orderId: ORDER_ID,
            packType: 2,
            personal: { fileName: "defence-pack-2-100234.pdf", storedPath: "defence/100234/defence-pack-2-100234.pdf" },
          },
        },
      ]);
  });

  it.each(OTHER_STATUSES)("are refused for a %s order", (status) => {
    spec
      .given(historyIn(status))
      .when(defencePack)
      .thenRefuses(
        "conflict",
        "Defence packs can be generated only for Completed, Customer Called or Chargeback orders.",
      );
  });
});
