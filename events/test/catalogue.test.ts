import { describe, expect, it } from "vitest";
import {
  CATALOGUE,
  GATEWAY_EVENTS,
  INVOICE_EVENTS,
  SERVICE_LEVEL_EVENTS,
  OPERATION_EVENTS,
  MAIL_EVENTS,
  GATEWAYS_STREAM,
  ORDER_EVENTS,
  OrderId,
  STAFF_EVENTS,
  StaffId,
  definitionOf,
  invoiceRegisterStream,
  orderStream,
  parseStreamName,
  staffStream,
} from "../src/index.ts";

/*
 * The catalogue is a contract with every event already stored: a type renamed, moved to another
 * stream category or given a new version without an upcaster makes stored logs unreadable. So
 * the expected list is written out here by hand, not derived from the catalogue: changing the
 * catalogue means changing this list too, on purpose (issue 9, "checks that never ran").
 */
const EXPECTED: Record<"order" | "staff" | "gateways" | "mail" | "invoices" | "serviceLevels" | "operations", Record<string, number>> = {
  order: {
    OrderPlaced: 2,
    OrderAssigned: 1,
    OrderStatusChanged: 1,
    OrderMovedToOriginalFolder: 1,
    OrderRefundRequested: 1,
    OrderRefunded: 1,
    OrderChargebackMarked: 1,
    OrderPermanentlyDeleted: 1,
    RemarkAdded: 3,
    DocumentUploaded: 2,
    DocumentMailResent: 1,
    ReminderMailSent: 1,
    InvoiceSent: 1,
    DocumentDownloaded: 2,
    TransactionDetailsRecorded: 2,
    DefencePackGenerated: 2,
  },
  staff: {
    StaffMemberAdded: 1,
    StaffMemberUpdated: 1,
    StaffMemberDeleted: 1,
    StaffCapacitySet: 1,
    PasswordChanged: 1,
    TwoFactorEnabled: 1,
    TwoFactorReset: 1,
    RecoveryCodeUsed: 1,
    DataExported: 1,
  },
  gateways: {
    GatewayRegistered: 1,
    GatewaySelected: 1,
  },
  mail: {
    MailQueued: 1,
    MailSent: 1,
    MailFailed: 2,
    MailOutcomeUnknown: 1,
    MailDelivered: 1,
    MailBounced: 1,
    MailComplained: 1,
    MailRetryRequested: 1,
  },
  invoices: {
    InvoiceNumberIssued: 1,
  },
  serviceLevels: {
    ServiceLevelPolicySet: 1,
  },
  operations: {
    ProjectionRebuildRequested: 1,
    ReactorRetryRequested: 1,
  },
};

/** `{type: version}` of some definitions, for comparing with the hand-written list. */
const versionsOf = (definitions: ReadonlyArray<{ readonly type: string; readonly version: number }>) =>
  Object.fromEntries(definitions.map((d) => [d.type, d.version]));

describe("the catalogue", () => {
  it("holds exactly the expected event types, each in its stream category, at its current version", () => {
    expect(versionsOf(ORDER_EVENTS)).toEqual(EXPECTED.order);
    expect(versionsOf(STAFF_EVENTS)).toEqual(EXPECTED.staff);
    expect(versionsOf(GATEWAY_EVENTS)).toEqual(EXPECTED.gateways);
    expect(versionsOf(MAIL_EVENTS)).toEqual(EXPECTED.mail);
    expect(versionsOf(INVOICE_EVENTS)).toEqual(EXPECTED.invoices);
    expect(versionsOf(SERVICE_LEVEL_EVENTS)).toEqual(EXPECTED.serviceLevels);
    expect(versionsOf(OPERATION_EVENTS)).toEqual(EXPECTED.operations);
    expect(versionsOf(CATALOGUE)).toEqual({ ...EXPECTED.order, ...EXPECTED.staff, ...EXPECTED.gateways, ...EXPECTED.mail, ...EXPECTED.invoices, ...EXPECTED.serviceLevels, ...EXPECTED.operations });
  });

  it("names each event type once, across all stream categories", () => {
    const types = CATALOGUE.map((d) => d.type);
    expect(types).toHaveLength(Object.keys(EXPECTED.order).length + Object.keys(EXPECTED.staff).length + Object.keys(EXPECTED.gateways).length + Object.keys(EXPECTED.mail).length + Object.keys(EXPECTED.invoices).length + Object.keys(EXPECTED.serviceLevels).length + Object.keys(EXPECTED.operations).length);
    expect(new Set(types).size).toBe(types.length);
  });

  it("looks each expected type up by name, at the expected version", () => {
    for (const [type, version] of Object.entries({ ...EXPECTED.order, ...EXPECTED.staff, ...EXPECTED.gateways, ...EXPECTED.mail, ...EXPECTED.invoices, ...EXPECTED.serviceLevels, ...EXPECTED.operations })) {
      expect(definitionOf(type)?.version, type).toBe(version);
    }
  });

  it("knows nothing of a type it does not list", () => {
    expect(definitionOf("OrderShipped")).toBeUndefined();
  });
});

describe("stream names (DESIGN §3)", () => {
  const orderId = OrderId.make("100234");
  const staffId = StaffId.make("7f3c2a");

  it("are order-{orderId}, staff-{id} and gateways", () => {
    expect(orderStream(orderId)).toBe("order-100234");
    expect(staffStream(staffId)).toBe("staff-7f3c2a");
    expect(GATEWAYS_STREAM).toBe("gateways");
  });

  it("read back into what they are about", () => {
    expect(parseStreamName("order-100234")).toEqual({ category: "order", orderId: "100234" });
    expect(parseStreamName("staff-7f3c2a")).toEqual({ category: "staff", staffId: "7f3c2a" });
    expect(parseStreamName("gateways")).toEqual({ category: "gateways" });
    expect(parseStreamName("order-12")).toBeUndefined();
    expect(parseStreamName("invoice-100234")).toBeUndefined();
  });
});

describe("ADMIN-6: the invoice registers, one stream per year", () => {
  it("are invoices-{year}, and read back into their year", () => {
    expect(invoiceRegisterStream(2026)).toBe("invoices-2026");
    expect(parseStreamName("invoices-2026")).toEqual({ category: "invoices", year: 2026 });
    expect(parseStreamName("invoices-26")).toBeUndefined();
    expect(parseStreamName("invoices-")).toBeUndefined();
  });
});
