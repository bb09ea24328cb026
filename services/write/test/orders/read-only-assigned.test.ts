import { IsoDate, type Role, StaffId } from "@etd/events";
import { describe, expect, it } from "vitest";
import {
  type ActingStaff,
  decideOrder,
  foldEvents,
  isRefusal,
  orderDecider,
  refuse,
  type StaffOrderCommand,
  type UploadDocument,
} from "../../src/index.ts";
import { specFor } from "../support/given-when-then.ts";
import { GRACE, MARIA, PAOLO, ref } from "../support/metadata.ts";
import {
  addRemark,
  CUSTOMER_EMAIL,
  documentUploaded,
  INVOICE,
  movedToOriginalFolder,
  ORDER_ID,
  orderAssigned,
  orderPlaced,
  refundRequested,
  remarkAdded,
  statusChanged,
} from "../support/order-fixtures.ts";

/*
 * QUEUE-12 held on the server (issue 11): an order assigned to someone else is read-only for Team,
 * Telecaller and Night Staff. Every staff command that changes an order from its page is checked,
 * for every role, on an unassigned order, an order the actor holds and an order someone else
 * holds. The page greys the buttons out; this is what answers a stale page or a direct call.
 */

const spec = specFor(orderDecider);

const ACTORS: Record<Role, ActingStaff> = {
  Admin: GRACE,
  Manager: MARIA,
  Team: PAOLO,
  Telecaller: { id: StaffId.make("c4a410"), name: "Carlo Mendoza", role: "Telecaller" },
  "Night Staff": { id: StaffId.make("7e55a9"), name: "Tessa Cruz", role: "Night Staff" },
};

/** Whoever holds the order when it is not the actor: a colleague on the Team. */
const ROSA: ActingStaff = { id: StaffId.make("5d2e10"), name: "Rosa Diaz", role: "Team" };

const READ_ONLY = "Order 100234 is assigned to Rosa Diaz; only they, a Manager or an Admin can change it.";

const uploadBy = (actor: ActingStaff): UploadDocument => ({
  type: "UploadDocument",
  orderId: ORDER_ID,
  fileName: "etravel-final.pdf",
  storedPath: "docs/100234/etravel-final.pdf",
  contentType: "application/pdf",
  sizeBytes: 20_480,
  actor,
  provider: "AWS",
  to: CUSTOMER_EMAIL,
});

/** One of each guarded command, each acceptable on the order `historyFor` builds for it. */
const guardedCommands = (actor: ActingStaff): readonly StaffOrderCommand[] => [
  { type: "ChangeStatus", orderId: ORDER_ID, to: "Awaiting", actor, permanentDelete: false },
  addRemark({ remarkerName: actor.name, statusRefund: true, actor }),
  uploadBy(actor),
  { type: "ResendDocumentMail", orderId: ORDER_ID, provider: "AWS", to: CUSTOMER_EMAIL, actor },
  { type: "SendReminderMail", orderId: ORDER_ID, provider: "Sendgrid", to: CUSTOMER_EMAIL, actor },
  { type: "RecordTransactionDetails", orderId: ORDER_ID, transactionId: "ch_1", merchantName: "ETD Services", actor },
  {
    type: "RecordDefencePack",
    orderId: ORDER_ID,
    packType: 1,
    fileName: "defence-pack-1-100234.pdf",
    storedPath: "docs/100234/defence-pack-1-100234.pdf",
    actor,
  },
  { type: "MoveOrderToOriginalFolder", orderId: ORDER_ID, actor },
];

type Holder = "unassigned" | "assigned to the actor" | "assigned to someone else";
const HOLDERS: readonly Holder[] = ["unassigned", "assigned to the actor", "assigned to someone else"];

/**
 * A Completed order with its document (what every guarded command needs), held by nobody, by the
 * actor, or by Rosa.
 */
const historyFor = (command: StaffOrderCommand, holder: Holder) => {
  const assignee = holder === "unassigned" ? undefined : holder === "assigned to the actor" ? command.actor : ROSA;
  const history = [
    orderPlaced(),
    ...(assignee === undefined ? [] : [orderAssigned(ref(assignee))]),
    statusChanged(assignee === undefined ? "New" : "Pending", "Completed"),
    documentUploaded(),
  ];
  return history;
};

const MAY_CHANGE_OTHERS: ReadonlySet<Role> = new Set(["Admin", "Manager"]);

const MATRIX = Object.values(ACTORS).flatMap((actor) =>
  guardedCommands(actor).flatMap((command) =>
    HOLDERS.map((holder) => ({
      type: command.type,
      role: actor.role,
      holder,
      command,
      outcome: holder !== "assigned to someone else" || MAY_CHANGE_OTHERS.has(actor.role) ? "allowed" : "refused",
    })),
  ),
);

describe("QUEUE-12 an order assigned to someone else is read-only below Manager (on the server)", () => {
  it("covers every guarded command for every role and holder", () => {
    expect(new Set(MATRIX.map((row) => row.type)).size).toBe(8);
    expect(MATRIX).toHaveLength(8 * 5 * 3);
  });

  it.each(MATRIX)("$type by a $role on an order $holder: $outcome", ({ command, holder, outcome }) => {
    const decision = decideOrder(command, foldEvents(orderDecider, historyFor(command, holder)));
    if (outcome === "allowed") {
      if (isRefusal(decision)) expect.fail(`refused: ${decision.message}`);
      expect(decision.length).toBeGreaterThan(0);
    } else {
      // A refusal is the whole answer: nothing to append.
      expect(Array.isArray(decision)).toBe(false);
      expect(decision).toEqual(refuse("forbidden", READ_ONLY));
    }
  });

  it("names the order and whoever holds it, e.g. Maria Santos (the lead's example)", () => {
    spec
      .given([orderPlaced(), orderAssigned(ref(MARIA))])
      .when(addRemark({ actor: PAOLO, remarkerName: PAOLO.name }))
      .thenRefuses("forbidden", "Order 100234 is assigned to Maria Santos; only they, a Manager or an Admin can change it.");
  });

  it("opens the order to everyone again once it went back to its original folder", () => {
    spec
      .given([orderPlaced(), orderAssigned(ref(MARIA)), movedToOriginalFolder("Pending", "New", ref(MARIA))])
      .when(addRemark({ actor: PAOLO, remarkerName: PAOLO.name }))
      .then([remarkAdded({ remarkerName: PAOLO.name })]);
  });

  it("records the uploader from the acting member: id and name, no role (ORDER-3)", () => {
    const decision = decideOrder(uploadBy(PAOLO), foldEvents(orderDecider, [orderPlaced(), orderAssigned(ref(PAOLO))]));
    if (isRefusal(decision)) expect.fail(`refused: ${decision.message}`);
    expect(decision.map((event) => (event.type === "DocumentUploaded" ? event.data.uploadedBy : event.type))).toEqual([
      { id: PAOLO.id, name: PAOLO.name },
    ]);
  });

  it("leaves Refunded it to every role (QUEUE-11): a Telecaller settles the refund of Rosa's order", () => {
    const telecaller = ACTORS.Telecaller;
    const decision = decideOrder(
      { type: "MarkOrderRefunded", orderId: ORDER_ID, actor: telecaller },
      foldEvents(orderDecider, [orderPlaced(), orderAssigned(ref(ROSA)), statusChanged("Pending", "Completed"), refundRequested("Completed")]),
    );
    if (isRefusal(decision)) expect.fail(`refused: ${decision.message}`);
    expect(decision.map((event) => event.type)).toEqual(["OrderRefunded"]);
  });

  it("leaves Send Invoice to its own screen (ADMIN-6): a Team member may send it for Rosa's order", () => {
    spec
      .given([orderPlaced(), orderAssigned(ref(ROSA))])
      .when({ type: "SendInvoice", orderId: ORDER_ID, provider: "AWS", invoice: INVOICE })
      .then([{ type: "InvoiceSent", data: { orderId: ORDER_ID, provider: "AWS", personal: { to: CUSTOMER_EMAIL }, invoice: INVOICE } }]);
  });

  it("keeps an invoice to another address for those who may change the order (ADMIN-6, QUEUE-12)", () => {
    const elsewhere = { type: "SendInvoice", orderId: ORDER_ID, provider: "AWS", to: "someone@elsewhere.example", invoice: INVOICE } as const;
    spec.given([orderPlaced(), orderAssigned(ref(ROSA))]).when({ ...elsewhere, actor: ACTORS.Team }).thenRefuses("forbidden", READ_ONLY);
    spec.given([orderPlaced(), orderAssigned(ref(ROSA))]).when(elsewhere).thenRefuses("invalid", "An invoice to another address needs the member who sends it.");
    spec
      .given([orderPlaced(), orderAssigned(ref(ROSA))])
      .when({ ...elsewhere, actor: ACTORS.Manager })
      .then([{ type: "InvoiceSent", data: { orderId: ORDER_ID, provider: "AWS", personal: { to: "someone@elsewhere.example" }, invoice: INVOICE } }]);
    // To the customer's own address, in any case: anyone.
    spec
      .given([orderPlaced(), orderAssigned(ref(ROSA))])
      .when({ ...elsewhere, to: CUSTOMER_EMAIL.toUpperCase(), actor: ACTORS.Team })
      .then([{ type: "InvoiceSent", data: { orderId: ORDER_ID, provider: "AWS", personal: { to: CUSTOMER_EMAIL.toUpperCase() }, invoice: INVOICE } }]);
  });

  it("leaves Assign to me its own answer (QUEUE-9), naming the winner", () => {
    spec
      .given([orderPlaced(), orderAssigned(ref(ROSA), "2025-03-14T10:04:12.000Z")])
      .when({ type: "AssignOrder", orderId: ORDER_ID, assignee: ref(PAOLO), now: "2025-03-14T10:05:00.000Z" })
      .thenRefuses("conflict", "Order 100234 was assigned to Rosa Diaz at 10:04:12 UTC.");
  });

  it("lets the traveller download from an assigned order: not a staff command (PUBLIC-2)", () => {
    spec
      .given([orderPlaced(), orderAssigned(ref(ROSA)), documentUploaded()])
      .when({ type: "RecordDownload", orderId: ORDER_ID, fileName: "etravel-100234.pdf", now: new Date("2025-03-15T12:00:00.000Z"), ip: "198.51.100.7" })
      .then([
        {
          type: "DocumentDownloaded",
          data: { orderId: ORDER_ID, personal: { ip: "198.51.100.7", fileName: "etravel-100234.pdf" } },
        },
      ]);
  });

  it("checks the rule after existence: a missing order is still not found", () => {
    spec
      .given([])
      .when(addRemark({ actor: PAOLO, today: IsoDate.make("2025-03-15") }))
      .thenRefuses("not_found", "Order 100234 was not found.");
  });
});
