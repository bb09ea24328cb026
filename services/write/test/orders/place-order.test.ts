import { IsoDate } from "@etd/events";
import { describe, it } from "vitest";
import { type OrderCommand, orderDecider } from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { GRACE, MARIA, ref } from "../support/metadata.ts";
import {
  APPLICATION,
  addRemark,
  DOCUMENT,
  ORDER_ID,
  orderPlaced,
  PERSONAL,
  permanentlyDeleted,
  placeOrder,
  statusChanged,
} from "../support/order-fixtures.ts";

const spec = specFor(orderDecider);

/** One of each command other than PlaceOrder, all about order 100234. */
const EVERY_OTHER_COMMAND: ReadonlyArray<OrderCommand> = [
  { type: "AssignOrder", orderId: ORDER_ID, assignee: ref(MARIA), now: "2025-03-14T10:00:00.000Z" },
  { type: "ChangeStatus", orderId: ORDER_ID, to: "Completed", actor: MARIA, permanentDelete: false },
  { type: "ChangeStatus", orderId: ORDER_ID, to: "Deleted", actor: GRACE, permanentDelete: true },
  { type: "MoveOrderToOriginalFolder", orderId: ORDER_ID, actor: MARIA },
  { type: "MarkOrderRefunded", orderId: ORDER_ID, actor: MARIA },
  addRemark(),
  {
    type: "UploadDocument",
    orderId: ORDER_ID,
    fileName: DOCUMENT,
    storedPath: `docs/100234/${DOCUMENT}`,
    contentType: "application/pdf",
    sizeBytes: 1000,
    actor: MARIA,
    provider: "AWS",
    to: "juan@example.com",
  },
  { type: "ResendDocumentMail", orderId: ORDER_ID, provider: "AWS", to: "juan@example.com", actor: MARIA },
  { type: "SendReminderMail", orderId: ORDER_ID, provider: "AWS", to: "juan@example.com", actor: MARIA },
  { type: "SendInvoice", orderId: ORDER_ID, provider: "Sendgrid" },
  { type: "RecordDownload", orderId: ORDER_ID, fileName: DOCUMENT, now: new Date("2025-03-15T12:00:00.000Z"), ip: "198.51.100.7" },
  { type: "RecordTransactionDetails", orderId: ORDER_ID, transactionId: "ch_1", merchantName: "ETD", actor: MARIA },
  {
    type: "RecordDefencePack",
    orderId: ORDER_ID,
    packType: 1,
    fileName: "defence-pack-1-100234.pdf",
    storedPath: "defence/100234/defence-pack-1-100234.pdf",
    actor: MARIA,
  },
];

describe("CARD-1 placing an order (intake)", () => {
  it("records the order as the customer-facing site submitted it", () => {
    spec
      .given([])
      .when(placeOrder({ processingMode: "priority", processingDate: IsoDate.make("2025-04-01") }))
      .then([
        {
          type: "OrderPlaced",
          data: {
            orderId: ORDER_ID,
            processingMode: "priority",
            landingDomain: "primary",
            processingDate: IsoDate.make("2025-04-01"),
            createdAt: placeOrder().createdAt,
            application: APPLICATION,
            personal: PERSONAL,
          },
        },
      ]);
  });

  it("refuses to place the same order twice", () => {
    spec.given([orderPlaced()]).when(placeOrder()).thenRefuses("conflict", "Order 100234 already exists.");
  });

  it("refuses to place an order again after it was permanently deleted", () => {
    spec
      .given([orderPlaced(), statusChanged("New", "Deleted"), permanentlyDeleted()])
      .when(placeOrder())
      .thenRefuses("conflict", "Order 100234 already exists.");
  });
});

describe("an order that was never placed", () => {
  it.each(EVERY_OTHER_COMMAND.map((command) => [command.type, command] as const))(
    "refuses %s: not found",
    (_type, command) => {
      spec.given([]).when(command).thenRefuses("not_found", "Order 100234 was not found.");
    },
  );
});

describe("QUEUE-8 an order deleted permanently takes no more commands", () => {
  it.each(EVERY_OTHER_COMMAND.map((command) => [command.type, command] as const))(
    "refuses %s",
    (_type, command) => {
      spec
        .given([orderPlaced(), statusChanged("New", "Deleted"), permanentlyDeleted()])
        .when(command)
        .thenRefuses("conflict", "Order 100234 was permanently deleted.");
    },
  );
});
