import {
  decodeEvent,
  encodeEvent,
  IsoDate,
  ORDER_EVENTS,
  type OrderEvent,
  OrderStatus,
} from "@etd/events";
import * as Result from "effect/Result";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decideOrder,
  evolveOrder,
  initialOrderState,
  isRefusal,
  type NewOrderEvent,
  type OrderCommand,
  type OrderState,
} from "../../src/index.ts";
import { GRACE, MARIA, PAOLO, ref, staffMetadata } from "../support/metadata.ts";
import { addRemark, CUSTOMER_EMAIL, DOCUMENT, INVOICE, ORDER_ID, PAYMENT, placeOrder } from "../support/order-fixtures.ts";

/*
 * Whatever staff do to an order, in whatever order: the invariants the folders and projections
 * rely on hold, and every event the decider emits is one the catalogue accepts.
 */

const NOW = "2025-03-14T12:00:00.000Z";
const staff = fc.constantFrom(MARIA, PAOLO, GRACE);
const provider = fc.constantFrom("AWS" as const, "Sendgrid" as const);

const everyday: fc.Arbitrary<OrderCommand> = fc.oneof(
  fc.constantFrom("standard" as const, "priority" as const).map((processingMode) => placeOrder({ processingMode })),
  staff.map((s): OrderCommand => ({ type: "AssignOrder", orderId: ORDER_ID, assignee: ref(s), now: NOW })),
  fc
    .record({ to: fc.constantFrom(...OrderStatus.literals), actor: staff })
    .map((c): OrderCommand => ({ type: "ChangeStatus", orderId: ORDER_ID, ...c, permanentDelete: false })),
  staff.map((actor): OrderCommand => ({ type: "MoveOrderToOriginalFolder", orderId: ORDER_ID, actor })),
  staff.map((actor): OrderCommand => ({ type: "MarkOrderRefunded", orderId: ORDER_ID, actor })),
  fc
    .record({
      remark: fc.constantFrom("Called the customer.", "  Refund approved  ", ""),
      whatsapp: fc.boolean(),
      telephone: fc.boolean(),
      statusRefund: fc.boolean(),
      voided: fc.boolean(),
      chargeBack: fc.boolean(),
      reportError: fc.boolean(),
      actor: staff,
    })
    .map((flags) => addRemark({ ...flags, today: IsoDate.make("2025-03-15") })),
  fc.record({ fileName: fc.constantFrom(DOCUMENT, "scan.png"), by: staff, provider }).map(
    ({ fileName, by, provider }): OrderCommand => ({
      type: "UploadDocument",
      orderId: ORDER_ID,
      fileName,
      storedPath: `docs/100234/${fileName}`,
      contentType: fileName.endsWith(".png") ? "image/png" : "application/pdf",
      sizeBytes: 2048,
      actor: by,
      provider,
      to: CUSTOMER_EMAIL,
    }),
  ),
  fc.record({ p: provider, actor: staff }).map(({ p, actor }): OrderCommand => ({ type: "ResendDocumentMail", orderId: ORDER_ID, provider: p, to: CUSTOMER_EMAIL, actor })),
  fc.record({ p: provider, actor: staff }).map(({ p, actor }): OrderCommand => ({ type: "SendReminderMail", orderId: ORDER_ID, provider: p, to: CUSTOMER_EMAIL, actor })),
  // ADMIN-6: the register issues the number; the order keeps its first one.
  fc.record({ p: provider, issued: fc.boolean() }).map(({ p, issued }): OrderCommand => ({ type: "SendInvoice", orderId: ORDER_ID, provider: p, ...(issued ? { invoice: INVOICE } : {}) })),
  fc
    .record({ fileName: fc.constantFrom(DOCUMENT, "scan.png", "other.pdf"), browser: fc.option(fc.string(), { nil: undefined }) })
    .map(
      ({ fileName, browser }): OrderCommand => ({
        type: "RecordDownload",
        orderId: ORDER_ID,
        fileName,
        now: new Date("2025-03-15T12:00:00.000Z"),
        ip: "198.51.100.7",
        browser,
        location: "Manila, PH",
      }),
    ),
  staff.map((actor): OrderCommand => ({
    type: "RecordTransactionDetails",
    orderId: ORDER_ID,
    transactionId: "ch_3OqZ8d2eZvKYlo2C1",
    merchantName: "ETD Services",
    actor,
  })),
  fc.record({ packType: fc.constantFrom(1 as const, 2 as const), actor: staff }).map(
    ({ packType, actor }): OrderCommand => ({
      type: "RecordDefencePack",
      orderId: ORDER_ID,
      packType,
      fileName: `defence-pack-${packType}-100234.pdf`,
      storedPath: `defence/100234/defence-pack-${packType}-100234.pdf`,
      actor,
    }),
  ),
);

/** Permanent delete ends an order's story, so it comes rarely. */
const permanentDelete = fc
  .record({ to: fc.constantFrom<OrderStatus>("Deleted", "Completed"), actor: staff })
  .map((c): OrderCommand => ({ type: "ChangeStatus", orderId: ORDER_ID, ...c, permanentDelete: true }));

const command = fc.oneof({ arbitrary: everyday, weight: 40 }, { arbitrary: permanentDelete, weight: 1 });

/** The handler's job in miniature: add metadata, store as JSON, read back, fold. */
const appendAndReadBack = (event: NewOrderEvent, occurredAt: string): OrderEvent => {
  const encoded = encodeEvent({ ...event, metadata: staffMetadata(MARIA, occurredAt) });
  const decoded = decodeEvent(JSON.parse(JSON.stringify(encoded)) as typeof encoded);
  if (Result.isFailure(decoded)) throw decoded.failure;
  return decoded.success as OrderEvent;
};

const checkInvariants = (before: OrderState, event: OrderEvent, after: OrderState): void => {
  if (!after.exists) expect.fail(`${event.type} left no order`);
  expect(OrderStatus.literals).toContain(after.status);
  // An order has at most one assignee: an assignment never replaces another one.
  if (event.type === "OrderAssigned") expect(before.exists && before.assignee).toBeFalsy();
  // The New and Priority folders hold only unassigned orders.
  if (after.status === "New" || after.status === "Priority") expect(after.assignee).toBeUndefined();
  // Projections keep folder counts from `from` without reading their own tables.
  if ("from" in event.data && before.exists) expect(event.data.from).toBe(before.status);
};

describe("CARD-1 order invariants for any sequence of commands", () => {
  it("folds to a known status, one assignee at most, and only catalogue-valid events", () => {
    const emitted = new Set<string>();
    const place = fc
      .constantFrom("standard" as const, "priority" as const)
      .map((processingMode) => placeOrder({ processingMode, payment: PAYMENT }));
    fc.assert(
      fc.property(place, fc.array(command, { minLength: 10, maxLength: 80 }), (first, rest) => {
        let state = initialOrderState;
        let clock = Date.parse("2025-03-14T08:00:00.000Z");
        for (const next of [first, ...rest]) {
          const decision = decideOrder(next, state);
          if (isRefusal(decision)) continue;
          for (const newEvent of decision) {
            clock += 1_000;
            const event = appendAndReadBack(newEvent, new Date(clock).toISOString());
            const after = evolveOrder(state, event);
            checkInvariants(state, event, after);
            emitted.add(event.type);
            state = after;
          }
        }
      }),
      { numRuns: 500 },
    );
    // Otherwise a rule nobody reaches would pass unchecked.
    expect([...emitted].sort()).toEqual(ORDER_EVENTS.map((definition) => definition.type).sort());
  });
});
