import { describe, expect, it } from "vitest";
import { foldEvents, type OrderState, orderDecider } from "../../src/index.ts";
import { GRACE, MARIA, PAOLO, ref } from "../support/metadata.ts";
import {
  CUSTOMER_EMAIL,
  documentDownloaded,
  documentUploaded,
  movedToOriginalFolder,
  orderAssigned,
  orderPlaced,
  permanentlyDeleted,
  refundRequested,
  statusChanged,
} from "../support/order-fixtures.ts";
import type { OrderEvent } from "@etd/events";

const fold = (events: ReadonlyArray<OrderEvent>) => {
  const state: OrderState = foldEvents(orderDecider, events);
  if (!state.exists) expect.fail("expected a placed order");
  return state;
};

describe("what an order's state tells the API", () => {
  it("does not exist before OrderPlaced", () => {
    expect(foldEvents(orderDecider, [])).toEqual({ exists: false });
  });

  it("starts a standard order in New and a priority order in Priority (DESIGN §4)", () => {
    expect(fold([orderPlaced()]).status).toBe("New");
    expect(fold([orderPlaced({ processingMode: "priority" })]).status).toBe("Priority");
  });

  it("knows the order's processing details and the customer's address", () => {
    expect(fold([orderPlaced()])).toMatchObject({
      orderId: "100234",
      processingMode: "standard",
      landingDomain: "primary",
      processingDate: "2025-03-14",
      email: CUSTOMER_EMAIL,
      assignee: undefined,
      document: undefined,
      permanentlyDeleted: false,
      lastChange: { by: "order-intake", at: "2025-03-14T08:00:01.000Z", what: "placed it" },
    });
  });

  it("QUEUE-9 remembers whom it is assigned to and since when; the assignment makes it Pending", () => {
    const state = fold([orderPlaced(), orderAssigned(ref(MARIA), "2025-03-14T10:04:12.000Z")]);
    expect(state.status).toBe("Pending");
    expect(state.assignee).toEqual({ staff: ref(MARIA), at: "2025-03-14T10:04:12.000Z" });
    expect(state.lastChange).toEqual({
      by: "Maria Santos",
      at: "2025-03-14T10:04:12.000Z",
      what: "assigned it to Maria Santos",
    });
  });

  it("keeps the assignee through status changes and records who moved it", () => {
    const state = fold([
      orderPlaced(),
      orderAssigned(ref(MARIA)),
      statusChanged("Pending", "Completed", PAOLO, "2025-03-14T15:30:00.000Z"),
    ]);
    expect(state.status).toBe("Completed");
    expect(state.assignee?.staff).toEqual(ref(MARIA));
    expect(state.lastChange).toEqual({
      by: "Paolo Reyes",
      at: "2025-03-14T15:30:00.000Z",
      what: "moved it to Completed",
    });
  });

  it("describes a soft delete and its undo", () => {
    expect(fold([orderPlaced(), statusChanged("New", "Deleted")]).lastChange.what).toBe("deleted it");
    expect(
      fold([orderPlaced(), statusChanged("New", "Deleted"), statusChanged("Deleted", "AwaitingGovt")]).lastChange.what,
    ).toBe("restored it to Awaiting Govt");
  });

  it("QUEUE-10 forgets the assignee when moved back to its original folder", () => {
    const state = fold([orderPlaced(), orderAssigned(), movedToOriginalFolder("Pending", "New", ref(MARIA))]);
    expect(state.status).toBe("New");
    expect(state.assignee).toBeUndefined();
  });

  it("remembers the refund date", () => {
    const state = fold([orderPlaced(), orderAssigned(), refundRequested("Pending", "2025-03-16")]);
    expect(state.status).toBe("Refund");
    expect(state.refundDate).toBe("2025-03-16");
  });

  it("ORDER-3 remembers the current document and who processed it", () => {
    const state = fold([
      orderPlaced(),
      documentUploaded("draft.pdf", ref(MARIA)),
      documentUploaded("final.pdf", ref(PAOLO), "2025-03-14T16:00:00.000Z"),
      documentDownloaded(),
    ]);
    expect(state.document).toEqual({
      fileName: "final.pdf",
      storedPath: "docs/100234/final.pdf",
      processedBy: ref(PAOLO),
      uploadedAt: "2025-03-14T16:00:00.000Z",
      provider: "AWS",
      mailedTo: CUSTOMER_EMAIL,
      // The download came after the later upload; a new upload starts its count afresh.
      downloads: 1,
      lastDownloadAt: "2025-03-14T09:26:53.589Z",
      reminded: false,
    });
  });

  it("QUEUE-8 after a permanent delete: Deleted, no e-mail address, flagged", () => {
    const state = fold([orderPlaced(), statusChanged("New", "Deleted", GRACE), permanentlyDeleted()]);
    expect(state).toMatchObject({ status: "Deleted", email: undefined, permanentlyDeleted: true });
  });

  it("reads an erased OrderPlaced as an order without an e-mail address", () => {
    expect(fold([orderPlaced({ erased: true })]).email).toBeUndefined();
  });
});
