import type { AnyEvent, EventType } from "../src/index.ts";

/** An event as it lies in the store's JSON columns, per type (brands are type-only). */
export type StoredSample<T extends EventType> = Extract<(typeof AnyEvent)["Encoded"], { readonly type: T }>;

export const staffMetadata = {
  actor: { kind: "staff", id: "7f3c2a", name: "Maria Santos", role: "Manager" },
  correlationId: "req-01JQ8Z6W3K4V5",
  requestIp: "203.0.113.24",
  occurredAt: "2025-03-14T09:26:53.589Z",
} as const;

export const intakeMetadata = {
  actor: { kind: "system", name: "order-intake" },
  correlationId: "c0a8012e-5b1f-4c7e-9d2a-3f4e5a6b7c8d",
  occurredAt: "2025-03-14T08:00:01.000Z",
} as const;

export const reactorMetadata = {
  actor: { kind: "system", name: "mail-reactor" },
  correlationId: "req-01JQ8Z6W3K4V5",
  causationId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
  occurredAt: "2025-03-14T09:26:55.120Z",
} as const;

export const customerMetadata = {
  actor: { kind: "customer" },
  correlationId: "req-01JQ9A0B1C2D3",
  occurredAt: "2025-03-15T14:02:11.004Z",
} as const;

export const TRAVELLER = {
  first_name: "Juan",
  last_name: "Dela Cruz",
  email: "juan.delacruz@example.com",
  passport_number: "P1234567A",
  phone_number: "9171234567",
} as const;

/**
 * The traveller's customs answers, under the names the intake request and the stored order share:
 * goods worth declaring, foreign currency and skincare products ("Yes"), nothing else.
 */
export const CUSTOMS_ANSWERS = {
  total_amount_of_goods: "Yes",
  amount_declaration: "450.00",
  philippine_currency: "No",
  foreign_currency: "Yes",
  gambling_paraphernalia: "No",
  cosmetics_skincare: "Yes",
  dangerous_drugs: "No",
  firearms_ammunitions: "No",
  alcohol_tobacco: "No",
  foodstuff_fruit: "No",
  mobile_phones: "No",
  cremains_human: "No",
  jewelry_gold: "No",
  other_goods: "No",
} as const;

const placed: StoredSample<"OrderPlaced"> = {
  type: "OrderPlaced",
  data: {
    orderId: "100234",
    processingMode: "priority",
    landingDomain: "primary",
    processingDate: "2025-03-20",
    createdAt: "2025-03-14T07:59:48.000Z",
    application: {
      transportation_type: "air",
      travel_type: "arrival",
      date_of_departure: "2025-03-19",
      date_of_return: "2025-04-10",
      date_of_travel: "2025-03-21",
      family_members_below_18: 1,
      family_members_18_and_above: 0,
      baggage_checked_in: 2,
      baggage_hand_carried: 1,
      first_time_visiting_philippines: "No",
      ...CUSTOMS_ANSWERS,
      sources_of_currencies_salary: "Yes",
      purpose_of_transport_leisure: "Yes",
      physically_transferred: "Yes",
      date_of_last_travel_philippines: "2023-12-18",
    },
    personal: {
      ...TRAVELLER,
      passport_type: "Regular",
      citizenship_id: "PH",
      citizenship: "Philippines",
      citizenshipCountry: "Philippines",
      purpose_of_visit: "holiday_or_vacation",
      traveller_type: "Filipino Citizen",
      name_of_airline: "Philippine Airlines",
      flight_number: "PR 103",
      country_of_origin: "United States",
      airport_of_origin: "Los Angeles International Airport",
      seat_number: "34C",
      country_of_destination: "Philippines",
      airport_of_destination: "Ninoy Aquino International Airport",
      destination_type: "hotel",
      hotel_details: "Manila",
      hotel_name: "other",
      hotel_other: "Casa Mabini Inn",
      custom_declaration_details: [
        {
          type: "cosmetics_skincare_info",
          details: [
            {
              cosmetics_skincare_description: "Sunscreen",
              cosmetics_skincare_quantity: 3,
              cosmetics_skincare_amount_in_usd: "45.00",
            },
          ],
        },
      ],
      instrument_information: [
        { id: "1", currency: "USD", monetaryInstrument: "Cash", amount: "12000.00" },
      ],
      no_of_days_philippines: "20",
      middle_name: "Reyes",
      sex: "Male",
      date_of_birth: "1986-07-02",
      country_of_birth: "Philippines",
      occupation: "Nurse",
      overseas_filipino_worker: 1,
      ofw_classification: "Land-based",
      signature_name: "Juan R. Dela Cruz",
      applicant_photo: "photos/100234.jpg",
      passport_issued_country: "Philippines",
      date_of_issued: "2021-05-11",
      confirm_email: TRAVELLER.email,
      country_code: "PH",
      country_phone_code: "63",
      permanent_country_of_residence: "United States",
      permanent_state_details: "California",
      permanent_municipality_details: "Daly City",
      address: "1450 Skyline Blvd",
      country_visited: "No",
      infectious_disease: "No",
      sick_in_past_thirty_days: "No",
      symtoms: "No",
      owner_currency_declaration_first_name: "Juan",
      owner_currency_declaration_last_name: "Dela Cruz",
      owner_currency_declaration_country: "United States",
      owner_currency_declaration_street: "1450 Skyline Blvd",
      owner_currency_declaration_pincode: "94015",
    },
    payment: { amount: "79.00", currency: "USD" },
  },
  metadata: intakeMetadata,
};

/** One realistic stored event of every type; the type makes a missing one a compile error. */
export const SAMPLES: { readonly [T in EventType]: StoredSample<T> } = {
  OrderPlaced: placed,
  OrderAssigned: {
    type: "OrderAssigned",
    data: { orderId: "100234", from: "Priority", assignee: { id: "7f3c2a", name: "Maria Santos" } },
    metadata: staffMetadata,
  },
  OrderStatusChanged: {
    type: "OrderStatusChanged",
    data: { orderId: "100234", from: "Pending", to: "AwaitingGovt" },
    metadata: staffMetadata,
  },
  OrderMovedToOriginalFolder: {
    type: "OrderMovedToOriginalFolder",
    data: {
      orderId: "100234",
      from: "Pending",
      to: "Priority",
      previousAssignee: { id: "7f3c2a", name: "Maria Santos" },
    },
    metadata: staffMetadata,
  },
  OrderRefundRequested: {
    type: "OrderRefundRequested",
    data: { orderId: "100234", from: "Completed", refundDate: "2025-03-14" },
    metadata: staffMetadata,
  },
  OrderRefunded: { type: "OrderRefunded", data: { orderId: "100234" }, metadata: staffMetadata },
  OrderChargebackMarked: {
    type: "OrderChargebackMarked",
    data: { orderId: "100234", from: "Completed" },
    metadata: staffMetadata,
  },
  OrderPermanentlyDeleted: {
    type: "OrderPermanentlyDeleted",
    data: { orderId: "100234", from: "Deleted" },
    metadata: { ...staffMetadata, actor: { kind: "staff", id: "1", name: "Admin", role: "Admin" } },
  },
  RemarkAdded: {
    type: "RemarkAdded",
    data: {
      orderId: "100234",
      remarkerName: "Maria Santos",
      personal: { remark: "Customer asked for a refund by phone; card ending 4242." },
      whatsapp: false,
      telephone: true,
      statusRefund: true,
      voided: false,
      chargeBack: false,
      reportError: false,
    },
    metadata: staffMetadata,
  },
  DocumentUploaded: {
    type: "DocumentUploaded",
    data: {
      orderId: "100234",
      contentType: "application/pdf",
      sizeBytes: 184_233,
      uploadedBy: { id: "7f3c2a", name: "Maria Santos" },
      provider: "AWS",
      personal: { to: TRAVELLER.email, fileName: "etravel-100234.pdf", storedPath: "uploads/docs/100234/etravel-100234.pdf" },
    },
    metadata: staffMetadata,
  },
  DocumentMailResent: {
    type: "DocumentMailResent",
    data: { orderId: "100234", provider: "Sendgrid", personal: { to: "juan.dc@example.org" } },
    metadata: staffMetadata,
  },
  ReminderMailSent: {
    type: "ReminderMailSent",
    data: { orderId: "100234", provider: "AWS", personal: { to: TRAVELLER.email } },
    metadata: staffMetadata,
  },
  InvoiceSent: {
    type: "InvoiceSent",
    data: {
      orderId: "100234",
      provider: "AWS",
      personal: { to: TRAVELLER.email },
      invoice: { number: "2025-000042", issuedAt: "2025-03-14T09:20:00.000Z", gatewayName: "Stripe", amount: "79.00", currency: "USD" },
    },
    metadata: staffMetadata,
  },
  DocumentDownloaded: {
    type: "DocumentDownloaded",
    data: {
      orderId: "100234",
      timezone: "America/Los_Angeles",
      personal: {
        ip: "198.51.100.7",
        location: "Daly City, California, US",
        fileName: "etravel-100234.pdf",
        browser: "Chrome-122-0",
        os: "Android 14",
        device: "Pixel 7",
        deviceType: "mobile",
      },
    },
    metadata: customerMetadata,
  },
  TransactionDetailsRecorded: {
    type: "TransactionDetailsRecorded",
    data: { orderId: "100234", personal: { transactionId: "ch_3OqZ8d2eZvKYlo2C1", merchantName: "ETD Services" } },
    metadata: staffMetadata,
  },
  DefencePackGenerated: {
    type: "DefencePackGenerated",
    data: {
      orderId: "100234",
      packType: 2,
      personal: { fileName: "defence-pack-2-100234.pdf", storedPath: "uploads/defence/100234/defence-pack-2-100234.pdf" },
    },
    metadata: staffMetadata,
  },
  StaffMemberAdded: {
    type: "StaffMemberAdded",
    data: { staffId: "9b1e44", name: "Paolo Reyes", email: "paolo@etd.example", role: "Night Staff" },
    metadata: staffMetadata,
  },
  StaffMemberUpdated: {
    type: "StaffMemberUpdated",
    data: { staffId: "9b1e44", name: "Paolo Reyes", email: "paolo.reyes@etd.example", role: "Team" },
    metadata: staffMetadata,
  },
  StaffMemberDeleted: {
    type: "StaffMemberDeleted",
    data: { staffId: "9b1e44" },
    metadata: staffMetadata,
  },
  PasswordChanged: {
    type: "PasswordChanged",
    data: { staffId: "7f3c2a" },
    metadata: staffMetadata,
  },
  TwoFactorEnabled: {
    type: "TwoFactorEnabled",
    data: { staffId: "7f3c2a" },
    metadata: staffMetadata,
  },
  TwoFactorReset: {
    type: "TwoFactorReset",
    data: { staffId: "9b1e44" },
    metadata: staffMetadata,
  },
  RecoveryCodeUsed: {
    type: "RecoveryCodeUsed",
    data: { staffId: "7f3c2a", remaining: 9 },
    metadata: staffMetadata,
  },
  DataExported: {
    type: "DataExported",
    data: { staffId: "7f3c2a", what: "search", folderName: "newOrder", rows: 1 },
    metadata: staffMetadata,
  },
  StaffCapacitySet: {
    type: "StaffCapacitySet",
    data: { staffId: "9b1e44", capacity: 12 },
    metadata: staffMetadata,
  },
  ServiceLevelPolicySet: {
    type: "ServiceLevelPolicySet",
    data: { version: 1, allowedMinutes: { standard: 1440, priority: 240, future: 1440 } },
    metadata: staffMetadata,
  },
  ProjectionRebuildRequested: {
    type: "ProjectionRebuildRequested",
    data: { projection: "queue", version: 3 },
    metadata: staffMetadata,
  },
  ReactorRetryRequested: {
    type: "ReactorRetryRequested",
    data: { reactor: "mail" },
    metadata: staffMetadata,
  },
  GatewayRegistered: {
    type: "GatewayRegistered",
    data: { gatewayId: "2", gatewayName: "Stripe" },
    metadata: { ...intakeMetadata, actor: { kind: "system", name: "demo-data" } },
  },
  InvoiceNumberIssued: {
    type: "InvoiceNumberIssued",
    data: { year: 2025, number: 42, orderId: "100234", gatewayId: "2", gatewayName: "Stripe", amount: "79.00", currency: "USD" },
    metadata: staffMetadata,
  },
  GatewaySelected: {
    type: "GatewaySelected",
    data: { gatewayId: "2", domain: "secondary", previousGatewayId: "1" },
    metadata: staffMetadata,
  },
  MailQueued: {
    type: "MailQueued",
    data: { mailId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", orderId: "100234", purpose: "document", provider: "AWS", transport: "ses", attempt: 1, messageId: "<0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.1@mail.etd>", template: "document/primary@1", from: "Philippines eTravel Declaration <no-reply@etd.example>", personal: { to: TRAVELLER.email, subject: "Your eTravel document for order 100234", text: "Your document is ready.", html: "<p>Your document is ready.</p>" } },
    metadata: reactorMetadata,
  },
  MailSent: {
    type: "MailSent",
    data: { mailId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", orderId: "100234", attempt: 1, transport: "ses", providerMessageId: "0100018e5c7d9b2a-4f1c" },
    metadata: reactorMetadata,
  },
  MailFailed: {
    type: "MailFailed",
    data: { mailId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", orderId: "100234", attempt: 2, personal: { reason: "429 Too Many Requests" }, retryAt: "2025-03-14T09:31:55.120Z" },
    metadata: reactorMetadata,
  },
  MailOutcomeUnknown: {
    type: "MailOutcomeUnknown",
    data: { mailId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", orderId: "100234", attempt: 1 },
    metadata: reactorMetadata,
  },
  MailDelivered: {
    type: "MailDelivered",
    data: { mailId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", orderId: "100234", transport: "ses", providerEventId: "5f2b7c1e-sns", reportedAt: "2025-03-14T09:27:03.000Z" },
    metadata: { ...reactorMetadata, actor: { kind: "system", name: "ses" } },
  },
  MailBounced: {
    type: "MailBounced",
    data: { mailId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", orderId: "100234", transport: "sendgrid", providerEventId: "sg-7c1e", reportedAt: "2025-03-14T09:27:03.000Z", permanent: true, reason: "550 5.1.1 [recipient]: Recipient address rejected" },
    metadata: { ...reactorMetadata, actor: { kind: "system", name: "sendgrid" } },
  },
  MailComplained: {
    type: "MailComplained",
    data: { mailId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", orderId: "100234", transport: "ses", providerEventId: "9a0c-sns", reportedAt: "2025-03-15T10:00:00.000Z" },
    metadata: { ...reactorMetadata, actor: { kind: "system", name: "ses" } },
  },
  MailRetryRequested: {
    type: "MailRetryRequested",
    data: { mailId: "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", orderId: "100234", requestedBy: { id: "7f3c2a", name: "Maria Santos" } },
    metadata: staffMetadata,
  },
};
