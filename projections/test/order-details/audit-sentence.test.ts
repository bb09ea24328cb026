import * as Result from "effect/Result";
import { describe, expect, it } from "vitest";
import {
  CATALOGUE,
  decodeEvent,
  encodeEvent,
  GATEWAY_EVENTS,
  INVOICE_EVENTS,
  MAIL_EVENTS,
  ORDER_EVENTS,
  STAFF_EVENTS,
  withPersonalErased,
  type Actor,
  type AnyEvent,
  type EventOfType,
  type EventType,
} from "@etd/events";
import { describeEvent, type AuditContext } from "../../src/order-details/audit-sentence.ts";
import { asStaff, asSystem, ALICIA, CARLO, CUSTOMER, INTAKE, MAIL_REACTOR, MARIA, TESSA } from "./support/story.ts";

/*
 * CARD-4, DESIGN §5: the audit timeline has a readable line for every event of the catalogue,
 * naming who did it and what changed, and nothing personal but staff names.
 */

const ORDER = "100234";
const TRAVELLER = { first_name: "Juan", last_name: "Dela Cruz", email: "juan.delacruz@example.com", passport_number: "P1234567A" };

const make = <T extends EventType>(type: T, data: object, actor: Actor): EventOfType<T> => {
  const raw = { type, data, metadata: { actor, correlationId: "req-1", occurredAt: "2025-03-14T09:26:53.589Z" } } as unknown as AnyEvent;
  // Through the codec both ways: every sample is an event the store could really hold.
  const decoded = decodeEvent(encodeEvent(raw));
  if (Result.isFailure(decoded)) throw decoded.failure;
  return decoded.success as EventOfType<T>;
};

const gateway = { gatewayId: "stripe-1", gatewayName: "Stripe" };
const MAIL_ID = "0f8e2c1a-4b7d-4e2a-9c3b-5d6e7f8a9b0c";
const REPORT = { mailId: MAIL_ID, orderId: ORDER, reportedAt: "2025-03-14T09:27:00.000Z" };

/** One event of each type, with the sentence it must read as. */
const SAMPLES: { readonly [T in EventType]: readonly [EventOfType<T>, string] } = {
  OrderPlaced: [
    make(
      "OrderPlaced",
      {
        orderId: ORDER,
        processingMode: "priority",
        landingDomain: "primary",
        processingDate: "2025-03-14",
        createdAt: "2025-03-14T07:59:48.000Z",
        application: { transportation_type: "air", travel_type: "arrival" },
        personal: { ...TRAVELLER, citizenship: "Philippines" },
      },
      INTAKE,
    ),
    "order-intake placed the order (priority, primary domain)",
  ],
  OrderAssigned: [
    make("OrderAssigned", { orderId: ORDER, from: "New", assignee: { id: MARIA.id, name: MARIA.name } }, asStaff(MARIA)),
    "Maria Santos (Manager) assigned the order to themselves; status New → Pending",
  ],
  OrderStatusChanged: [
    make("OrderStatusChanged", { orderId: ORDER, from: "Awaiting", to: "Completed" }, asStaff(ALICIA)),
    "Alicia Ramos (Team) moved the order from Awaiting Customer to Completed",
  ],
  OrderMovedToOriginalFolder: [
    make(
      "OrderMovedToOriginalFolder",
      { orderId: ORDER, from: "Pending", to: "Priority", previousAssignee: { id: ALICIA.id, name: ALICIA.name } },
      asStaff(MARIA),
    ),
    "Maria Santos (Manager) moved the order back to Priority Orders and took it off Alicia Ramos; status Pending → Priority",
  ],
  OrderRefundRequested: [
    make("OrderRefundRequested", { orderId: ORDER, from: "Completed", refundDate: "2025-03-20" }, asStaff(ALICIA)),
    "Alicia Ramos (Team) asked for a refund, refund date 2025-03-20; status Completed → Refund",
  ],
  OrderRefunded: [
    make("OrderRefunded", { orderId: ORDER }, asStaff(MARIA)),
    "Maria Santos (Manager) marked the refund as paid back; status Refund → Completed Refund",
  ],
  OrderChargebackMarked: [
    make("OrderChargebackMarked", { orderId: ORDER, from: "CustomerCalled" }, asStaff(TESSA)),
    "Tessa Cruz (Night Staff) marked the order as a chargeback; status Customer Called → Chargeback",
  ],
  OrderPermanentlyDeleted: [
    make("OrderPermanentlyDeleted", { orderId: ORDER, from: "Deleted" }, asStaff(CARLO)),
    "Carlo Mendoza (Admin) deleted the order permanently: its personal data is erased, its history kept",
  ],
  RemarkAdded: [
    make(
      "RemarkAdded",
      {
        orderId: ORDER,
        remarkerName: "Tessa Cruz",
        personal: { remark: "Juan Dela Cruz called about P1234567A" },
        whatsapp: true,
        telephone: false,
        statusRefund: true,
        voided: false,
        chargeBack: false,
        reportError: true,
      },
      asStaff(TESSA),
    ),
    "Tessa Cruz (Night Staff) added a comment (flags: Whatsapp, Refund, ReportError)",
  ],
  DocumentUploaded: [
    make(
      "DocumentUploaded",
      {
        orderId: ORDER,
        contentType: "application/pdf",
        sizeBytes: 48213,
        uploadedBy: { id: TESSA.id, name: TESSA.name },
        provider: "AWS",
        personal: { to: TRAVELLER.email, fileName: "etravel.pdf", storedPath: "docs/100234/etravel.pdf" },
      },
      asStaff(TESSA),
    ),
    "Tessa Cruz (Night Staff) uploaded etravel.pdf and asked AWS to mail it",
  ],
  DocumentMailResent: [
    make("DocumentMailResent", { orderId: ORDER, provider: "Sendgrid", personal: { to: TRAVELLER.email } }, asStaff(ALICIA)),
    "Alicia Ramos (Team) asked Sendgrid to mail etravel.pdf again",
  ],
  ReminderMailSent: [
    make("ReminderMailSent", { orderId: ORDER, provider: "AWS", personal: { to: TRAVELLER.email } }, asStaff(ALICIA)),
    "Alicia Ramos (Team) asked AWS to send a reminder to download etravel.pdf",
  ],
  InvoiceSent: [
    make("InvoiceSent", { orderId: ORDER, provider: "AWS", personal: { to: TRAVELLER.email } }, asStaff(MARIA)),
    "Maria Santos (Manager) asked AWS to mail the invoice",
  ],
  MailQueued: [
    make(
      "MailQueued",
      {
        mailId: MAIL_ID,
        orderId: ORDER,
        purpose: "reminder",
        provider: "AWS",
        transport: "outbox",
        attempt: 1,
        messageId: `<${MAIL_ID}.1@mail.etd.example>`,
        template: "reminder/primary",
        from: "eTravel Documents <documents@etd.example>",
        personal: { to: TRAVELLER.email, subject: "Your eTravel document", text: `Dear ${TRAVELLER.first_name}`, html: `<p>Dear ${TRAVELLER.first_name}</p>` },
      },
      MAIL_REACTOR,
    ),
    "mail-reactor queued attempt 1 of the download reminder mail for AWS, via outbox (.eml file, no provider credentials)",
  ],
  MailSent: [
    make("MailSent", { mailId: MAIL_ID, orderId: ORDER, attempt: 2, transport: "sendgrid", providerMessageId: "sg-14c5d3" }, MAIL_REACTOR),
    "mail-reactor handed attempt 2 of the mail to Sendgrid, which accepted it as sg-14c5d3",
  ],
  MailFailed: [
    make("MailFailed", { mailId: MAIL_ID, orderId: ORDER, attempt: 2, personal: { reason: "421 try again later" }, retryAt: "2025-03-14T09:31:53.589Z" }, MAIL_REACTOR),
    "mail-reactor could not send attempt 2 of the mail (421 try again later); will try again at 2025-03-14T09:31:53.589Z",
  ],
  MailOutcomeUnknown: [
    make("MailOutcomeUnknown", { mailId: MAIL_ID, orderId: ORDER, attempt: 1 }, MAIL_REACTOR),
    "mail-reactor found attempt 1 of the mail without an outcome; it is not sent again unless a delivery report or Retry settles it",
  ],
  MailDelivered: [
    make("MailDelivered", { ...REPORT, transport: "ses", providerEventId: "ses-delivery-1" }, asSystem("ses")),
    "ses reported the mail delivered by AWS SES at 2025-03-14T09:27:00.000Z",
  ],
  MailBounced: [
    make("MailBounced", { ...REPORT, transport: "sendgrid", providerEventId: "sg-9", permanent: true, reason: "bounce (5.1.1)" }, asSystem("sendgrid")),
    "sendgrid reported the mail bounced for good by Sendgrid at 2025-03-14T09:27:00.000Z: bounce (5.1.1)",
  ],
  MailComplained: [
    make("MailComplained", { ...REPORT, transport: "ses", providerEventId: "ses-complaint-1" }, asSystem("ses")),
    "ses reported that the recipient marked the mail as spam (AWS SES, 2025-03-14T09:27:00.000Z)",
  ],
  MailRetryRequested: [
    make("MailRetryRequested", { mailId: MAIL_ID, orderId: ORDER, requestedBy: { id: ALICIA.id, name: ALICIA.name } }, asStaff(ALICIA)),
    "Alicia Ramos (Team) pressed Retry: the mail will be sent again",
  ],
  DocumentDownloaded: [
    make(
      "DocumentDownloaded",
      {
        orderId: ORDER,
        timezone: "EST",
        personal: { ip: "198.51.100.7", location: "Quezon City, PH", fileName: "etravel.pdf", browser: "Chrome", os: "Android", device: "Android device", deviceType: "Mobile" },
      },
      CUSTOMER,
    ),
    "The traveller downloaded etravel.pdf with Chrome on Android (Mobile)",
  ],
  TransactionDetailsRecorded: [
    make("TransactionDetailsRecorded", { orderId: ORDER, personal: { transactionId: "ch_3PqX7", merchantName: "ETD Services" } }, asStaff(MARIA)),
    "Maria Santos (Manager) recorded transaction ch_3PqX7 with merchant ETD Services",
  ],
  DefencePackGenerated: [
    make(
      "DefencePackGenerated",
      { orderId: ORDER, packType: 2, personal: { fileName: "defence-pack-2.pdf", storedPath: "docs/100234/defence-pack-2.pdf" } },
      asSystem("pdf-reactor"),
    ),
    "pdf-reactor generated defence pack 2 (defence-pack-2.pdf)",
  ],
  StaffMemberAdded: [
    make("StaffMemberAdded", { staffId: TESSA.id, name: TESSA.name, email: "tessa@etd.example", role: "Team" }, asStaff(MARIA)),
    "Maria Santos (Manager) added Tessa Cruz to the team as Team",
  ],
  StaffMemberUpdated: [
    make("StaffMemberUpdated", { staffId: TESSA.id, name: TESSA.name, email: "tessa.cruz@etd.example", role: "Night Staff" }, asStaff(MARIA)),
    "Maria Santos (Manager) changed the role of Tessa Cruz from Team to Night Staff, changed the e-mail address of Tessa Cruz",
  ],
  StaffMemberDeleted: [make("StaffMemberDeleted", { staffId: TESSA.id }, asStaff(CARLO)), "Carlo Mendoza (Admin) removed Tessa Cruz from the team"],
  StaffCapacitySet: [make("StaffCapacitySet", { staffId: TESSA.id, capacity: 12 }, asStaff(MARIA)), "Maria Santos (Manager) set the capacity of Tessa Cruz to 12 open orders"],
  PasswordChanged: [make("PasswordChanged", { staffId: CARLO.id }, asStaff(CARLO)), "Carlo Mendoza (Admin) changed their own password"],
  TwoFactorEnabled: [make("TwoFactorEnabled", { staffId: MARIA.id }, asStaff(MARIA)), "Maria Santos (Manager) turned on two-factor sign-in with an authenticator app"],
  TwoFactorReset: [make("TwoFactorReset", { staffId: TESSA.id }, asStaff(CARLO)), "Carlo Mendoza (Admin) reset the two-factor sign-in of Tessa Cruz"],
  RecoveryCodeUsed: [make("RecoveryCodeUsed", { staffId: MARIA.id, remaining: 9 }, asStaff(MARIA)), "Maria Santos (Manager) signed in with a recovery code (9 codes left)"],
  // The event keeps no search text (often a traveller's name): the sentence says a search was exported.
  DataExported: [
    make("DataExported", { staffId: MARIA.id, what: "search", folderName: "newOrder", rows: 120 }, asStaff(MARIA)),
    "Maria Santos (Manager) exported 120 orders found by a search in newOrder as CSV",
  ],
  GatewayRegistered: [make("GatewayRegistered", gateway, asSystem("setup")), "setup registered the payment gateway Stripe"],
  GatewaySelected: [
    make("GatewaySelected", { gatewayId: "stripe-1", domain: "secondary", previousGatewayId: "paypal-1" }, asStaff(MARIA)),
    "Maria Santos (Manager) made Stripe the active gateway of the secondary domain, replacing PayPal",
  ],
  ServiceLevelPolicySet: [
    make("ServiceLevelPolicySet", { version: 2, allowedMinutes: { standard: 1440, priority: 90, future: 720 } }, asStaff(CARLO)),
    "Carlo Mendoza (Admin) set the service levels, version 2: Standard 24 h, Priority 1 h 30 min, future orders 12 h from their processing date",
  ],
  ProjectionRebuildRequested: [
    make("ProjectionRebuildRequested", { projection: "queue", version: 7 }, asStaff(CARLO)),
    "Carlo Mendoza (Admin) asked for the queue read model (version 7) to be rebuilt",
  ],
  ReactorRetryRequested: [make("ReactorRetryRequested", { reactor: "mail" }, asStaff(CARLO)), "Carlo Mendoza (Admin) asked the mail reactor to try again now"],
  InvoiceNumberIssued: [
    make("InvoiceNumberIssued", { year: 2025, number: 42, orderId: ORDER, gatewayId: "stripe-1", gatewayName: "Stripe", amount: "49.00", currency: "USD" }, asStaff(MARIA)),
    "Maria Santos (Manager) issued invoice 2025-000042 for order 100234 (49.00 USD, Stripe)",
  ],
};

/** The state just before each sample: Tessa was on the team as Team, the order had its document. */
const CONTEXT: AuditContext = {
  currentFileName: "etravel.pdf",
  staff: (id) => (id === TESSA.id ? { name: TESSA.name, role: "Team", email: "tessa@etd.example" } : undefined),
  gatewayName: (id) => ({ "stripe-1": "Stripe", "paypal-1": "PayPal" })[id],
};

const sampleOf = (type: EventType) => SAMPLES[type] as readonly [AnyEvent, string];

describe("the audit timeline's sentences (CARD-4)", () => {
  const groups = { ORDER_EVENTS, STAFF_EVENTS, GATEWAY_EVENTS, MAIL_EVENTS, INVOICE_EVENTS };
  for (const [group, definitions] of Object.entries(groups)) {
    describe(group, () => {
      for (const definition of definitions) {
        it(`${definition.type} reads as who did what`, () => {
          const [event, expected] = sampleOf(definition.type);
          const sentence = describeEvent(event, CONTEXT);
          expect(sentence).toBe(expected);
          // Not a generic "X happened": no type names, more than the actor.
          expect(sentence).not.toContain(definition.type);
          expect(sentence.length).toBeGreaterThan(30);
        });
      }
    });
  }

  it("gives every event type of the catalogue its own sentence", () => {
    const sentences = CATALOGUE.map((definition) => describeEvent(sampleOf(definition.type)[0], CONTEXT));
    expect(new Set(sentences).size).toBe(CATALOGUE.length);
  });

  it("never names the traveller: no name, e-mail, passport, IP or comment text", () => {
    for (const definition of CATALOGUE) {
      const sentence = describeEvent(sampleOf(definition.type)[0], CONTEXT);
      for (const secret of [...Object.values(TRAVELLER), "Juan", "198.51.100.7", "Quezon City", "called about"]) {
        expect(sentence).not.toContain(secret);
      }
    }
  });

  it("names whom an assignment went to when it was not the actor, and a future order's day", () => {
    const [assigned] = SAMPLES.OrderAssigned;
    const forAlicia = { ...assigned, data: { ...assigned.data, assignee: { id: ALICIA.id, name: ALICIA.name } } };
    expect(describeEvent(forAlicia, CONTEXT)).toBe("Maria Santos (Manager) assigned the order to Alicia Ramos; status New → Pending");

    const [placed] = SAMPLES.OrderPlaced;
    const future = { ...placed, data: { ...placed.data, processingDate: "2025-05-02" } } as AnyEvent;
    expect(describeEvent(future, CONTEXT)).toBe("order-intake placed the order (priority, primary domain); a future order, due 2025-05-02");
  });

  it("describes soft delete and undelete as such (QUEUE-8)", () => {
    const [changed] = SAMPLES.OrderStatusChanged;
    const deleted = { ...changed, data: { ...changed.data, from: "Pending", to: "Deleted" } } as AnyEvent;
    const restored = { ...changed, data: { ...changed.data, from: "Deleted", to: "AwaitingGovt" } } as AnyEvent;
    expect(describeEvent(deleted, CONTEXT)).toBe("Alicia Ramos (Team) deleted the order (soft delete; it was Pending)");
    expect(describeEvent(restored, CONTEXT)).toBe("Alicia Ramos (Team) restored the order from Deleted to Awaiting Govt");
  });

  it("issue 16 D: names an exported report by its screen's title, its rows and its days (ADMIN-4, ADMIN-7)", () => {
    // Order Processed is Admin only (ADMIN-7): Carlo exports it, Maria the other reports.
    const report = (data: object, by = MARIA) => describeEvent(make("DataExported", { staffId: by.id, what: "report", ...data }, asStaff(by)), CONTEXT);
    expect(report({ report: "order-processed", fromDate: "2025-03-01", toDate: "2025-03-10", rows: 2500 }, CARLO)).toBe(
      "Carlo Mendoza (Admin) exported 2500 orders of the Order Processed list (2025-03-01 to 2025-03-10) as CSV",
    );
    expect(report({ report: "country-orders", rows: 1 })).toBe("Maria Santos (Manager) exported 1 row of the Country Orders report as CSV");
    expect(report({ report: "processed-by", fromDate: "2025-03-01", rows: 4 })).toBe(
      "Maria Santos (Manager) exported 4 rows of the Processed By report (from 2025-03-01) as CSV",
    );
  });

  it("issue 25: an erased order's sentences quote nothing of its sealed part: no file, transaction, device or provider's answer", () => {
    const erased = (type: EventType) => withPersonalErased(sampleOf(type)[0]);
    const after = { ...CONTEXT, currentFileName: undefined };
    expect(describeEvent(erased("DocumentUploaded"), after)).toBe("Tessa Cruz (Night Staff) uploaded the document and asked AWS to mail it");
    expect(describeEvent(erased("DocumentDownloaded"), after)).toBe("The traveller downloaded the document");
    expect(describeEvent(erased("TransactionDetailsRecorded"), after)).toBe("Maria Santos (Manager) recorded a transaction's details");
    expect(describeEvent(erased("DefencePackGenerated"), after)).toBe("pdf-reactor generated defence pack 2");
    expect(describeEvent(erased("MailFailed"), after)).toBe("mail-reactor could not send attempt 2 of the mail; will try again at 2025-03-14T09:31:53.589Z");
    for (const definition of CATALOGUE) {
      const sentence = describeEvent(erased(definition.type), after);
      for (const quoted of ["etravel.pdf", "ch_3PqX7", "ETD Services", "Chrome", "Android", "421 try again", "defence-pack-2.pdf"]) expect(sentence).not.toContain(quoted);
    }
  });

  it("says whose password an Admin set, and a comment signed by someone else", () => {
    const [changed] = SAMPLES.PasswordChanged;
    const forTessa = { ...changed, data: { staffId: TESSA.id } } as AnyEvent;
    expect(describeEvent(forTessa, CONTEXT)).toBe("Carlo Mendoza (Admin) set a new password for Tessa Cruz");

    const [remark] = SAMPLES.RemarkAdded;
    const signed = { ...remark, data: { ...remark.data, remarkerName: "Night shift", whatsapp: false, statusRefund: false, reportError: false } } as AnyEvent;
    expect(describeEvent(signed, CONTEXT)).toBe("Tessa Cruz (Night Staff) added a comment signed Night shift (no flags)");
  });
});
